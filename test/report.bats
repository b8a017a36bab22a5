#!/usr/bin/env bats
# The reports and the command line: text layout, tsv escaping, json, --sort,
# --events, standard input, unreadable inputs, usage errors.
# Fixtures: test/fixtures/report/ (each explains its expected numbers in comments).

load test_helper

P="$BATS_TEST_DIRNAME/fixtures/report"

# strip_out: remove the trailing blanks of $OUT. The text report pads its header lines;
# they are not compared (so an editor cannot break the expected text).
strip_out() {
	sed 's/[ ]*$//' "$OUT" >"$OUT.s" && mv "$OUT.s" "$OUT"
}

# ---------------------------------------------------------------- text

@test "text: header, totals, thousands separators, percentages, file:function, sorted" {
	# text.callgrind: main (main.c) self 1,000 Ir / 10 Dr, calls work 3x costing
	# 1,233,567 / 90; work (work.c) self 1,233,567 / 90.
	# Total Ir = 1,234,567, Dr = 100.
	#   work self = incl: 1233567 / 1234567 = 99.919% -> 99.92%; Dr 90 / 100 = 90.00%
	#   main self 1000 / 1234567 = 0.081% -> 0.08%; Dr 10%; incl = total -> 100.0%
	# Sorted by self Ir (the first event), largest first.
	cd "$P"
	ncg text.callgrind
	expect_status 0
	expect_no_err
	strip_out
	expect_out <<'EOF'
--------------------------------------------------------------------------------
Profile data file 'text.callgrind' (creator: hand-written for report.bats)
--------------------------------------------------------------------------------
Command:     ./text --flag
Parts:       1
Events:      Ir Dr
Sorted by:   self Ir
--------------------------------------------------------------------------------
Ir                  Dr
--------------------------------------------------------------------------------
1,234,567 (100.0%)  100 (100.0%)  PROGRAM TOTALS
--------------------------------------------------------------------------------
Ir incl             Ir self             Dr incl       Dr self       calls  file:function
--------------------------------------------------------------------------------
1,233,567 (99.92%)  1,233,567 (99.92%)   90 (90.00%)   90 (90.00%)      3  work.c:work
1,234,567 (100.0%)      1,000 ( 0.08%)  100 (100.0%)   10 (10.00%)      0  main.c:main
EOF
}

@test "text: 'Sorted by:' names the key and the event" {
	local key want
	for key in "self:self Ir" "incl:inclusive Ir" "calls:calls" "name:name" \
		"incl:Dr:inclusive Dr" "self:Dr:self Dr"; do
		want=${key##*:}
		ncg --sort="${key%:*}" "$P/sort.callgrind"
		expect_status 0
		grep -qx "Sorted by:   $want" "$OUT" || {
			echo "--sort=${key%:*}: expected 'Sorted by:   $want', got:"
			grep '^Sorted by' "$OUT"
			return 1
		}
	done
}

@test "text: the calls report" {
	# one call edge: main -> work, 3 calls, 1,233,567 Ir (99.92%), 90 Dr (90.00%);
	# columns as wide as the totals' (100 (100.0%))
	cd "$P"
	ncg --dump=calls text.callgrind
	expect_status 0
	expect_no_err
	strip_out
	expect_out <<'EOF'
--------------------------------------------------------------------------------
Profile data file 'text.callgrind' (creator: hand-written for report.bats)
--------------------------------------------------------------------------------
Command:     ./text --flag
Parts:       1
Events:      Ir Dr
Sorted by:   self Ir
--------------------------------------------------------------------------------
Ir                  Dr
--------------------------------------------------------------------------------
1,234,567 (100.0%)  100 (100.0%)  PROGRAM TOTALS
--------------------------------------------------------------------------------
Ir incl             Dr incl       count  caller -> callee
--------------------------------------------------------------------------------
1,233,567 (99.92%)   90 (90.00%)      3  main.c:main -> work.c:work
EOF
}

@test "text: unknown file is ???, unknown function (unknown)" {
	# cost-before-fn: 10 Ir before any fn= / fl= (an error), main 20 in a.c
	ncg "$FIX/malformed/cost-before-fn.callgrind"
	expect_status 1
	assert_grep '  a.c:main' "$OUT"
	assert_grep '  ???:(unknown)' "$OUT"
}

@test "text: bytes a terminal would interpret are shown \\xNN (tab), others as they are" {
	# escape.callgrind: a tab in the file and function names, backslashes
	cd "$P"
	ncg escape.callgrind
	expect_status 0
	tail -3 "$OUT" >"$OUT.t" && mv "$OUT.t" "$OUT"
	expect_out <<'EOF'
40 (66.67%)  30 (50.00%)      0  dir\sub/tab\x09file.c:tab\x09name
20 (33.33%)  20 (33.33%)      0  dir\sub/tab\x09file.c:back\slash
10 (16.67%)  10 (16.67%)      2  dir\sub/tab\x09file.c:lit\n
EOF
}

@test "text: ESC, other control bytes and DEL in a name are shown \\xNN" {
	# ctl.callgrind: fn=red ESC [31m \001 x DEL -- printed raw, the terminal would
	# switch to red. The tsv keeps the bytes (only \t \n \\ are escaped), json uses
	# \u00XX.
	cd "$P"
	ncg ctl.callgrind
	expect_status 0
	tail -1 "$OUT" >"$OUT.t" && mv "$OUT.t" "$OUT"
	expect_out <<'EOF'
5 (100.0%)  5 (100.0%)      0  c.c:red\x1b[31m\x01x\x7f
EOF
	ncg --format=tsv ctl.callgrind
	printf 'function\tfile\tobject\tcalls\tself:Ir\tincl:Ir\nred\033[31m\001x\177\tc.c\t\t0\t5\t5\n' \
		>"$BATS_TEST_TMPDIR/want"
	_expect_diff "$BATS_TEST_TMPDIR/want" "$OUT" stdout
	ncg --format=json ctl.callgrind
	assert_grep '{"function":"red\u001b[31m\u0001x\u007f","file":"c.c",' "$OUT"
}

# ---------------------------------------------------------------- tsv escaping

@test "tsv: tab and backslash in names, files and objects are written \\t and \\\\" {
	# escape.callgrind (bytes): ob=/lib/o\b.so  fl=dir\sub/tab<TAB>file.c
	#   fn=tab<TAB>name 30 Ir, calls 'lit\n' (a backslash and an n, not a newline) 2x
	#   costing 10; fn=back\slash 20; fn=lit\n 10.
	# A newline cannot occur inside a name of a line-based file: only \t and \\ here.
	tsv_ok "$P/escape.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
tab\tname | dir\\sub/tab\tfile.c | /lib/o\\b.so | 0 | 30 | 40
back\\slash | dir\\sub/tab\tfile.c | /lib/o\\b.so | 0 | 20 | 20
lit\\n | dir\\sub/tab\tfile.c | /lib/o\\b.so | 2 | 10 | 10
EOF
	tsv_ok --dump=calls "$P/escape.callgrind"
	expect_tsv <<'EOF'
caller | caller_file | callee | callee_file | count | incl:Ir | recorded:Ir | mark
tab\tname | dir\\sub/tab\tfile.c | lit\\n | dir\\sub/tab\tfile.c | 2 | 10 | 10 | 
EOF
}

@test "tsv: numbers of every length, each side of every power of ten, as the file gives them" {
	# one event per number, so that no total goes past 64 bits
	vals="0 1 2"
	z="" n=""
	for k in $(seq 1 19); do
		z="${z}0" n="${n}9"
		vals="$vals $n 1$z 1${z%0}1"
	done
	vals="$vals 18446744073709551615"
	{
		printf 'events:'
		i=0
		for v in $vals; do printf ' E%d' $((i += 1)); done
		printf '\nfn=f\n1 %s\n' "$vals"
	} >"$BATS_TEST_TMPDIR/digits.callgrind"
	tsv_ok "$BATS_TEST_TMPDIR/digits.callgrind"
	tr ' ' '\n' <<<"$vals" >"$OUT.want"
	[ "$(wc -l <"$OUT.want")" = 61 ]
	# the self columns, then the inclusive ones: the same numbers
	sed -n 2p "$OUT" | cut -f5- | tr '\t' '\n' >"$OUT.got"
	diff -u <(cat "$OUT.want" "$OUT.want") "$OUT.got"
}

@test "tsv: every row has the header's number of fields" {
	tsv_ok "$P/escape.callgrind"
	awk -F'\t' 'NR == 1 { n = NF } NF != n { print "line " NR ": " NF " fields, header " n; bad = 1 }
		END { exit bad }' "$OUT"
}

# ---------------------------------------------------------------- json

@test "json: the keys of the functions report, names escaped" {
	cd "$P"
	ncg --format=json escape.callgrind
	expect_status 0
	expect_no_err
	# one object; header keys in order, then one function per line
	head -1 "$OUT" | grep -q '^{"file":"escape.callgrind","creator":"","command":"","parts":1,"events":\[{"name":"Ir","long_name":"","formula":null}\],"totals":{"Ir":60},"functions":\[$'
	tail -1 "$OUT" | grep -qx ']}'
	# backslash as \\, tab as \t or \u0009
	grep -Eq '^\{"function":"tab(\\t|\\u0009)name","file":"dir\\\\sub/tab(\\t|\\u0009)file.c","object":"/lib/o\\\\b.so","calls":0,"cycle":0,"self":\{"Ir":30\},"incl":\{"Ir":40\}\},?$' "$OUT"
	grep -Eq '^\{"function":"back\\\\slash",.*"calls":0,.*"self":\{"Ir":20\},"incl":\{"Ir":20\}\},?$' "$OUT"
	grep -Eq '^\{"function":"lit\\\\n",.*"calls":2,.*"self":\{"Ir":10\},"incl":\{"Ir":10\}\},?$' "$OUT"
	[ "$(grep -c '^{"function":' "$OUT")" -eq 3 ]
}

@test "json: valid JSON whose strings decode to the bytes of the names" {
	cd "$P"
	ncg --format=json escape.callgrind
	expect_status 0
	ncg --format=json --dump=calls escape.callgrind
	cp "$OUT" "$BATS_TEST_TMPDIR/calls.json"
	ncg --format=json escape.callgrind
	command -v python3 >/dev/null || skip "python3 is needed to check the JSON (the keys are checked by the test above)"
	python3 -m json.tool "$OUT" >/dev/null
	python3 -m json.tool "$BATS_TEST_TMPDIR/calls.json" >/dev/null
	python3 - "$OUT" "$BATS_TEST_TMPDIR/calls.json" <<'EOF'
import json, sys
f = json.load(open(sys.argv[1]))
names = [(x["function"], x["file"], x["object"], x["calls"], x["self"]["Ir"], x["incl"]["Ir"])
         for x in f["functions"]]
want = [("tab\tname", "dir\\sub/tab\tfile.c", "/lib/o\\b.so", 0, 30, 40),
        ("back\\slash", "dir\\sub/tab\tfile.c", "/lib/o\\b.so", 0, 20, 20),
        ("lit\\n", "dir\\sub/tab\tfile.c", "/lib/o\\b.so", 2, 10, 10)]
assert names == want, names
assert f["totals"] == {"Ir": 60} and f["parts"] == 1, f
c = json.load(open(sys.argv[2]))
assert c["calls"] == [{"caller": "tab\tname", "caller_file": "dir\\sub/tab\tfile.c",
                       "callee": "lit\\n", "callee_file": "dir\\sub/tab\tfile.c",
                       "count": 2, "incl": {"Ir": 10}, "recorded": {"Ir": 10},
                       "recursive": False}], c["calls"]
EOF
}

@test "json: each byte of a name that is not UTF-8 is written as the text \\xNN" {
	# invalid-utf8-names: fl= bytes ff fe '.c', fn= 'f' c3 '(' a0 (c3 starts a
	# sequence that '(' does not go on). In JSON the backslash is itself escaped.
	ncg --format=json "$FIX/malformed/invalid-utf8-names.callgrind"
	expect_status 0
	assert_grep '"function":"f\\xc3(\\xa0","file":"\\xff\\xfe.c"' "$OUT"
}

@test "json: the calls report" {
	ncg --format=json --dump=calls "$FIX/spec/spec-extended.callgrind"
	expect_status 0
	expect_no_err
	grep -q '"totals":{"Instructions":820},"calls":\[$' "$OUT"
	assert_grep '{"caller":"main","caller_file":"file1.c","callee":"func1","callee_file":"file1.c","count":1,"incl":{"Instructions":400},"recorded":{"Instructions":400},"recursive":false}' "$OUT"
	assert_grep '{"caller":"main","caller_file":"file1.c","callee":"func2","callee_file":"file2.c","count":3,"incl":{"Instructions":400},"recorded":{"Instructions":400},"recursive":false}' "$OUT"
	assert_grep '{"caller":"func1","caller_file":"file1.c","callee":"func2","callee_file":"file2.c","count":2,"incl":{"Instructions":300},"recorded":{"Instructions":300},"recursive":false}' "$OUT"
	[ "$(grep -c '"caller":' "$OUT")" -eq 3 ]
}

# ---------------------------------------------------------------- --sort

# sort.callgrind: costs per function (see its comments)
#   function calls self:Ir self:Dr incl:Ir incl:Dr
#   main     0     5       40      100     65
#   alpha    1     30      20      30      20
#   beta     4     15      2       65      5
#   gamma    2     50      3       50      3
sort_order() {
	ncg --format=tsv "$@" "$P/sort.callgrind"
	expect_status 0
	cut -f1 "$OUT" | tail -n +2 | tr '\n' ' ' >"$OUT.o"
	echo >>"$OUT.o"
	mv "$OUT.o" "$OUT"
}

@test "sort: default is self of the first event, largest first" {
	sort_order
	expect_out <<<'gamma alpha beta main '
}

@test "sort: --sort=self" {
	sort_order --sort=self
	expect_out <<<'gamma alpha beta main '
}

@test "sort: --sort=incl" {
	sort_order --sort=incl
	expect_out <<<'main beta gamma alpha '
}

@test "sort: --sort=calls" {
	sort_order --sort=calls
	expect_out <<<'beta gamma alpha main '
}

@test "sort: --sort=name (ascending)" {
	sort_order --sort=name
	expect_out <<<'alpha beta gamma main '
}

@test "sort: --sort=self:Dr and --sort=incl:Dr" {
	sort_order --sort=self:Dr
	expect_out <<<'main alpha gamma beta '
	sort_order --sort=incl:Dr
	expect_out <<<'main alpha beta gamma '
}

@test "sort: --sort=self:Dr sorts on an event that is not shown" {
	sort_order --sort=self:Dr --events=Ir
	expect_out <<<'main alpha gamma beta '
}

@test "sort: the first event shown is the default sort event" {
	sort_order --events=Dr
	expect_out <<<'main alpha gamma beta '
}

@test "sort: the calls report sorts by the cost of the calls, or by their count" {
	# main -> alpha 1x 30/20, main -> beta 4x 65/5, beta -> gamma 2x 50/3
	ncg --dump=calls --format=tsv "$P/sort.callgrind"
	cut -f1,3 "$OUT" >"$OUT.c" && mv "$OUT.c" "$OUT"
	expect_tsv <<'EOF'
caller | callee
main | beta
beta | gamma
main | alpha
EOF
	ncg --dump=calls --format=tsv --sort=incl:Dr "$P/sort.callgrind"
	cut -f1,3 "$OUT" >"$OUT.c" && mv "$OUT.c" "$OUT"
	expect_tsv <<'EOF'
caller | callee
main | alpha
main | beta
beta | gamma
EOF
	ncg --dump=calls --format=tsv --sort=calls "$P/sort.callgrind"
	cut -f1,3 "$OUT" >"$OUT.c" && mv "$OUT.c" "$OUT"
	expect_tsv <<'EOF'
caller | callee
main | beta
beta | gamma
main | alpha
EOF
}

@test "sort: ties are broken by name, then file" {
	# ties.callgrind: zeta, alpha, mid 10 each, big 20 (t.c); dup 5 in b.c, then a.c
	ncg --format=tsv "$P/ties.callgrind"
	expect_status 0
	cut -f1,2,5 "$OUT" >"$OUT.c" && mv "$OUT.c" "$OUT"
	expect_tsv <<'EOF'
function | file | self:Ir
big | t.c | 20
alpha | t.c | 10
mid | t.c | 10
zeta | t.c | 10
dup | a.c | 5
dup | b.c | 5
EOF
	# all calls are 0: name order
	ncg --format=tsv --sort=calls "$P/ties.callgrind"
	cut -f1,2 "$OUT" >"$OUT.c" && mv "$OUT.c" "$OUT"
	expect_tsv <<'EOF'
function | file
alpha | t.c
big | t.c
dup | a.c
dup | b.c
mid | t.c
zeta | t.c
EOF
}

@test "sort: ties that only later bytes of a name break, then file, object, order of the file" {
	# ties-bytes.callgrind: every self cost 7 but z in c.so (0). The order is
	# bytewise: dispatc < dispatch < dispatch_ < dispatch_aa (a name before the
	# names it starts, bytes past the first 8), z < é (0xc3); the two dispatch
	# by object; the two nofile (no file, an empty file) in the order of the file.
	ncg --format=tsv "$P/ties-bytes.callgrind"
	expect_status 0
	cut -f1-3,5 "$OUT" >"$OUT.c" && mv "$OUT.c" "$OUT"
	expect_tsv <<'EOF'
function | file | object | self:Ir
dispatc | s.c | /lib/b.so | 7
dispatch | s.c | /lib/a.so | 7
dispatch | s.c | /lib/b.so | 7
dispatch_ | s.c | /lib/b.so | 7
dispatch_aa | s.c | /lib/b.so | 7
dispatch_zz | s.c | /lib/b.so | 7
main | m.c | /lib/c.so | 7
nofile |  | /lib/a.so | 7
nofile |  | /lib/a.so | 7
z | s.c | /lib/b.so | 7
é | s.c | /lib/b.so | 7
z | s.c | /lib/c.so | 0
EOF
	ncg --format=json --sort=calls "$P/ties-bytes.callgrind"
	grep -o '"function":"[^"]*","file":"[^"]*","object":"[^"]*","calls":[0-9]*' "$OUT" \
		>"$OUT.c" && mv "$OUT.c" "$OUT"
	expect_out <<'EOF'
"function":"dispatc","file":"s.c","object":"/lib/b.so","calls":2
"function":"dispatch","file":"s.c","object":"/lib/a.so","calls":2
"function":"dispatch","file":"s.c","object":"/lib/b.so","calls":2
"function":"dispatch_aa","file":"s.c","object":"/lib/b.so","calls":2
"function":"dispatch_zz","file":"s.c","object":"/lib/b.so","calls":2
"function":"z","file":"s.c","object":"/lib/b.so","calls":2
"function":"dispatch_","file":"s.c","object":"/lib/b.so","calls":0
"function":"main","file":"m.c","object":"/lib/c.so","calls":0
"function":"nofile","file":"","object":"/lib/a.so","calls":0
"function":"nofile","file":"","object":"/lib/a.so","calls":0
"function":"z","file":"s.c","object":"/lib/c.so","calls":0
"function":"é","file":"s.c","object":"/lib/b.so","calls":0
EOF
	# the calls: equal counts and costs, by caller, then callee (name, file, object)
	ncg --dump=calls --format=text --sort=calls "$P/ties-bytes.callgrind"
	sed -n '/caller -> callee/,$p' "$OUT" | sed 1,2d >"$OUT.c" && mv "$OUT.c" "$OUT"
	expect_out <<'EOF'
 7 ( 9.09%)   1 ( 9.09%)      2  m.c:main -> s.c:dispatc
 7 ( 9.09%)   1 ( 9.09%)      2  m.c:main -> s.c:dispatch
 7 ( 9.09%)   1 ( 9.09%)      2  m.c:main -> s.c:dispatch
 7 ( 9.09%)   1 ( 9.09%)      2  m.c:main -> s.c:dispatch_aa
 7 ( 9.09%)   1 ( 9.09%)      2  m.c:main -> s.c:z
 7 ( 9.09%)   1 ( 9.09%)      2  s.c:z -> s.c:dispatch_zz
EOF
}

# gen_ties N: a profile of N function lines in 5 files whose names share long
# prefixes (node_aabcab, node_aabcab_x4: some lines are the same function) and
# whose costs tie often (0..49), and a call from line i/2 to each line i
# (count 1..3, cost 0..19).
gen_ties() {
	awk -v n="$1" 'BEGIN {
		print "events: Ir Dr"; print "ob=/bin/x"
		for (i = 0; i < n; i++) {
			k = (i * 7919) % n; name = "node_"
			for (d = 0; d < 6; d++) { name = name substr("abc", k % 3 + 1, 1); k = int(k / 3) }
			if (i % 4 == 0) name = name "_x" i % 10
			file[i] = int(i / 50) % 5; fname[i] = name
			printf "fl=src/f%d.c\nfn=%s\n1 %d %d\n", file[i], name, (i * 13) % 50, i % 3
		}
		for (i = 1; i < n; i++) {
			c = int(i / 2)
			printf "fl=src/f%d.c\nfn=%s\ncfi=src/f%d.c\ncfn=%s\ncalls=%d 1\n1 %d %d\n",
				file[c], fname[c], file[i], fname[i], i % 3 + 1, (i * 7) % 20, i % 2
		}
	}' >"$BATS_TEST_TMPDIR/ties.callgrind"
}

# gen_prefixes N: N distinct function names, in one file, that share
# prefixes of 1 to 31 bytes (a namespace, a class template) and go on by 0
# to 19 bytes of "ab_" and a byte above 0x7f: names that end at, before and
# after each multiple of 8 bytes, and names that begin others.
gen_prefixes() {
	LC_ALL=C awk -v n="$1" 'BEGIN {
		split("ns::Klass<int>::method_aaaaaaaa ns::Klass<int>::m ns::Klass<long>:: ns::Kla ns:: n", pre, " ")
		hi = sprintf("%c", 195)
		print "events: Ir"; print "fl=a.c"
		for (i = 0; got < n; i++) {
			k = (i * 7919) % 100003
			name = pre[k % 6 + 1]; k = int(k / 6)
			for (d = k % 20; d > 0; d--) {
				name = name substr("ab_" hi, k % 4 + 1, 1); k = int(k / 4) + d
			}
			if (name in seen) continue
			seen[name] = 1; got++
			printf "fn=%s\n%d %d\n", name, got, (i * 13) % 50 + 1
		}
	}' >"$BATS_TEST_TMPDIR/prefixes.callgrind"
}

@test "sort: names sharing prefixes past 8, 16 and 24 bytes, in the order of sort(1)" {
	gen_prefixes 3000
	[ "$(grep -c '^fn=' "$BATS_TEST_TMPDIR/prefixes.callgrind")" = 3000 ]
	tsv_ok --sort=name "$BATS_TEST_TMPDIR/prefixes.callgrind"
	sed 1d "$OUT" | cut -f1 >"$OUT.got"
	sed -n 's/^fn=//p' "$BATS_TEST_TMPDIR/prefixes.callgrind" | LC_ALL=C sort >"$OUT.want"
	diff -u "$OUT.want" "$OUT.got"
}

@test "sort: on many tied costs and shared prefixes, the order of sort(1) in bytes" {
	gen_ties 2000
	# functions: self Ir descending, then name, file (one object; names and files
	# make each function unique, so the index never decides)
	tsv_ok --sort=self "$BATS_TEST_TMPDIR/ties.callgrind"
	sed 1d "$OUT" | cut -f1,2,5 >"$OUT.got"
	LC_ALL=C sort -t"$(printf '\t')" -k3,3nr -k1,1 -k2,2 "$OUT.got" >"$OUT.want"
	diff -u "$OUT.want" "$OUT.got"
	tsv_ok --sort=name "$BATS_TEST_TMPDIR/ties.callgrind"
	sed 1d "$OUT" | cut -f1,2 >"$OUT.got"
	LC_ALL=C sort -t"$(printf '\t')" -k1,1 -k2,2 "$OUT.got" >"$OUT.want"
	diff -u "$OUT.want" "$OUT.got"
	# calls: count descending, then caller (name, file), then callee
	tsv_ok --dump=calls --sort=calls "$BATS_TEST_TMPDIR/ties.callgrind"
	sed 1d "$OUT" | cut -f1-5 >"$OUT.got"
	LC_ALL=C sort -t"$(printf '\t')" -k5,5nr -k1,1 -k2,2 -k3,3 -k4,4 "$OUT.got" >"$OUT.want"
	diff -u "$OUT.want" "$OUT.got"
	[ "$(wc -l <"$OUT.got")" -gt 1000 ]
}

# gen_chain N: f0 calls f1, which calls f2, ... (self Ir 1..1000, Dr 0..6), so
# that the inclusive costs go from the total down to a line's own.
gen_chain() {
	awk -v n="$1" 'BEGIN {
		print "events: Ir Dr"; print "fl=c.c"
		for (i = 0; i < n; i++) { ir[i] = (i * 104729) % 1000 + 1; dr[i] = i % 7 }
		for (i = n - 1; i >= 0; i--) { cir[i] = ir[i] + cir[i + 1]; cdr[i] = dr[i] + cdr[i + 1] }
		for (i = 0; i < n; i++) {
			printf "fn=f%d\n1 %d %d\n", i, ir[i], dr[i]
			if (i + 1 < n)
				printf "cfn=f%d\ncalls=1 1\n1 %d %d\n", i + 1, cir[i + 1], cdr[i + 1]
		}
		printf "%d %d %d %d\n", cir[0], cir[0], cdr[0], cdr[0] >"/dev/stderr"
	}' >"$BATS_TEST_TMPDIR/chain.callgrind" 2>"$BATS_TEST_TMPDIR/chain.totals"
}

@test "text: every share is printf's %5.2f of the value over the total" {
	gen_chain 1500
	ncg "$BATS_TEST_TMPDIR/chain.callgrind"
	expect_status 0
	# the cells: incl Ir, self Ir, incl Dr, self Dr; chain.totals has their totals
	sed -n '/file:function/,$p' "$OUT" | sed 1,2d | tr -d ',()%' |
		awk -v t="$(cat "$BATS_TEST_TMPDIR/chain.totals")" 'BEGIN { split(t, tot, " ") }
		{
			for (e = 1; e <= 4; e++) {
				v = $(2 * e - 1); got = $(2 * e)
				want = v >= tot[e] ? "100.0" : sprintf("%5.2f", 100 * v / tot[e])
				gsub(/ /, "", want)
				if (got != want) { print NR ": " v " of " tot[e] ": " got ", want " want; bad++ }
				seen[want] = 1
			}
		}
		END { n = 0; for (w in seen) n++; print n " shares"; exit bad > 0 || n < 1000 }'
}

@test "sort: unknown key or event is a usage error (exit 2, no report)" {
	ncg --sort=bogus "$P/sort.callgrind"
	expect_status 2
	expect_out </dev/null
	head -1 "$ERR" | grep -qx "ncgrind: unknown sort key 'bogus' (self, incl, calls, name)"
	tail -n 1 "$ERR" | grep -qx 'see ncgrind --help'
	[ "$(wc -l <"$ERR")" -eq 2 ] # the error and the pointer, not the whole usage
	ncg --sort=self:Nope "$P/sort.callgrind"
	expect_status 2
	expect_out </dev/null
	head -1 "$ERR" | grep -qx "ncgrind: unknown sort event 'Nope'"
}

# ---------------------------------------------------------------- --events

@test "events: a subset, in the order given" {
	tsv_ok --events=Dr "$P/sort.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Dr | incl:Dr
main | s.c |  | 0 | 40 | 65
alpha | s.c |  | 1 | 20 | 20
gamma | s.c |  | 2 | 3 | 3
beta | s.c |  | 4 | 2 | 5
EOF
	# Dr first: sorted by self Dr
	tsv_ok --events=Dr,Ir "$P/sort.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Dr | self:Ir | incl:Dr | incl:Ir
main | s.c |  | 0 | 40 | 5 | 65 | 100
alpha | s.c |  | 1 | 20 | 30 | 20 | 30
gamma | s.c |  | 2 | 3 | 50 | 3 | 50
beta | s.c |  | 4 | 2 | 15 | 5 | 65
EOF
}

@test "events: names separated by blanks" {
	tsv_ok "--events=Ir Dr" "$P/sort.callgrind"
	head -1 "$OUT" | grep -qx $'function\tfile\tobject\tcalls\tself:Ir\tself:Dr\tincl:Ir\tincl:Dr'
}

@test "events: the text report shows only the chosen events" {
	cd "$P"
	ncg --events=Dr text.callgrind
	expect_status 0
	strip_out
	sed -n '6p;9p;11p;13p;15,16p' "$OUT" >"$OUT.s" && mv "$OUT.s" "$OUT"
	expect_out <<'EOF'
Events:      Dr
Dr
100 (100.0%)  PROGRAM TOTALS
Dr incl       Dr self       calls  file:function
 90 (90.00%)   90 (90.00%)      3  work.c:work
100 (100.0%)   10 (10.00%)      0  main.c:main
EOF
}

@test "events: an unknown event is a usage error (exit 2, no report)" {
	ncg --events=Ir,Xx "$P/sort.callgrind"
	expect_status 2
	expect_out </dev/null
	# sort.callgrind's events: line is "events: Ir Dr"
	head -1 "$ERR" | grep -qx "ncgrind: unknown event 'Xx' (the profile has Ir, Dr)"
	tail -n 1 "$ERR" | grep -qx 'see ncgrind --help'
	[ "$(wc -l <"$ERR")" -eq 2 ] # the error and the pointer, not the whole usage
}

# ---------------------------------------------------------------- standard input

@test "stdin: '-' reads standard input (redirected file)" {
	ncg_stdin "$FIX/spec/spec-extended.callgrind" --format=tsv -
	expect_status 0
	expect_no_err
	expect_tsv <<'EOF'
function | file | object | calls | self:Instructions | incl:Instructions
func2 | file2.c |  | 5 | 700 | 700
func1 | file1.c |  | 1 | 100 | 400
main | file1.c |  | 0 | 20 | 820
EOF
}

@test "stdin: '-' reads a pipe" {
	status=0
	# shellcheck disable=SC2002,SC2086 # the point is a pipe; $VALGRIND is a command line
	cat "$FIX/spec/spec-extended.callgrind" | $VALGRIND "$NCGRIND" --format=tsv - >"$OUT" 2>"$ERR" ||
		status=$?
	expect_status 0
	expect_no_err
	expect_tsv <<'EOF'
function | file | object | calls | self:Instructions | incl:Instructions
func2 | file2.c |  | 5 | 700 | 700
func1 | file1.c |  | 1 | 100 | 400
main | file1.c |  | 0 | 20 | 820
EOF
}

@test "stdin: a file without final newline through a pipe" {
	status=0
	# shellcheck disable=SC2002,SC2086 # the point is a pipe; $VALGRIND is a command line
	cat "$FIX/edge/edge-no-trailing-newline.callgrind" |
		$VALGRIND "$NCGRIND" --format=tsv - >"$OUT" 2>"$ERR" || status=$?
	expect_status 0
	tail -1 "$OUT" | grep -qx $'main\tfile1.c\t\t0\t20\t820'
	head -2 "$OUT" | tail -1 | grep -qx $'func2\tfile2.c\t\t5\t700\t700'
}

@test "stdin: messages and the json file name say '-'" {
	status=0
	# shellcheck disable=SC2002,SC2086 # the point is a pipe; $VALGRIND is a command line
	cat "$FIX/malformed/too-many-costs.callgrind" |
		$VALGRIND "$NCGRIND" --format=json - >"$OUT" 2>"$ERR" || status=$?
	expect_status 1
	expect_err <<'EOF'
-:6: more costs than the 2 events; line ignored
EOF
	head -1 "$OUT" | grep -q '^{"file":"-",'
}

@test "stdin: empty input is an empty profile (exit 1)" {
	ncg_stdin /dev/null --format=tsv -
	expect_status 1
	expect_out </dev/null
	grep -q '^-: empty file' "$ERR"
}

# ---------------------------------------------------------------- unreadable inputs

@test "input: an empty file: exit 1, no report, the message says empty" {
	: >"$BATS_TEST_TMPDIR/empty.out"
	cd "$BATS_TEST_TMPDIR"
	ncg --format=tsv empty.out
	expect_status 1
	expect_out </dev/null
	expect_err <<'EOF'
empty.out: empty file, no profile data (valgrind --separate-threads=yes leaves an empty file beside the per-thread files NAME-01, NAME-02, ...)
EOF
}

@test "input: a directory: exit 1, no report" {
	mkdir "$BATS_TEST_TMPDIR/adir"
	cd "$BATS_TEST_TMPDIR"
	ncg adir
	expect_status 1
	expect_out </dev/null
	expect_err <<'EOF'
adir: cannot read: is a directory
EOF
}

@test "input: a missing file: exit 1, no report" {
	cd "$BATS_TEST_TMPDIR"
	ncg --format=tsv no-such-file.callgrind
	expect_status 1
	expect_out </dev/null
	expect_err <<'EOF'
no-such-file.callgrind: cannot read: No such file or directory
EOF
}

# ---------------------------------------------------------------- usage

@test "usage: unknown option, format, report or part list, no file: exit 2" {
	local f="$FIX/spec/spec-simple.callgrind" args
	for args in "--bogus $f" "--format=xml $f" "--dump=bogus $f" "--events= $f" "" "--parts=9 $f" \
		"--color=bogus $f" "--colour= $f"; do
		# shellcheck disable=SC2086
		ncg $args
		if [ "$status" != 2 ] || [ -s "$OUT" ] ||
			{ [ "${args#--parts}" = "$args" ] && ! grep -qx 'see ncgrind --help' "$ERR"; }; then
			echo "ncgrind $args: status $status (want 2), stdout $(wc -c <"$OUT") bytes (want 0):"
			cat "$ERR"
			return 1
		fi
	done
}

@test "usage: the messages name the problem" {
	local f="$FIX/spec/spec-simple.callgrind"
	ncg --format=xml "$f"
	head -1 "$ERR" | grep -qx "ncgrind: unknown format 'xml' (text, tsv, json)"
	ncg --dump=bogus "$f"
	head -1 "$ERR" | grep -qx "ncgrind: unknown report 'bogus' (functions, calls, tree, callers, callees, folded, source, lines)"
	cd "$BATS_TEST_TMPDIR"
	ncg
	head -1 "$ERR" | grep -qx "ncgrind: no profile given, and no callgrind.out.\* here"
	ncg --parts=2-3 "$f"
	head -1 "$ERR" | grep -qx "ncgrind: --parts: no part is '2-3' (there is 1 part; see P)"
	ncg --parts=x "$f"
	head -1 "$ERR" | grep -qx "ncgrind: --parts: bad part list item 'x' (N, N-M, tN, FILE:N, all)"
	ncg --color=bogus "$f"
	head -1 "$ERR" | grep -qx "ncgrind: --color wants auto, always or never, not 'bogus'"
}

@test "usage: --color (--colour) is the browser's; the reports, which have no colour, take it unchanged" {
	local f="$FIX/spec/spec-extended.callgrind" c
	ncg --dump=functions "$f"
	expect_status 0
	cp "$OUT" "$BATS_TEST_TMPDIR/plain"
	for c in --color=always --color=never --color=auto --colour=always; do
		NO_COLOR= ncg "$c" --dump=functions "$f"
		expect_status 0
		expect_no_err
		diff -u "$BATS_TEST_TMPDIR/plain" "$OUT"
	done
}

@test "no file: the newest non-empty callgrind.out.* of the current directory" {
	cd "$BATS_TEST_TMPDIR"
	cp "$FIX/spec/spec-simple.callgrind" callgrind.out.100
	cp "$FIX/spec/spec-extended.callgrind" callgrind.out.200
	: >callgrind.out.300
	touch -d '2020-01-01' callgrind.out.100
	touch -d '2021-01-01' callgrind.out.200
	touch -d '2022-01-01' callgrind.out.300 # newest, but empty (--separate-threads leaves one)
	ncg --dump=functions --format=tsv
	expect_status 0
	expect_tsv <<'EOF'
function | file | object | calls | self:Instructions | incl:Instructions
func2 | file2.c |  | 5 | 700 | 700
func1 | file1.c |  | 1 | 100 | 400
main | file1.c |  | 0 | 20 | 820
EOF
}

@test "usage: --help prints the usage on stdout, exit 0; --version" {
	ncg --help
	expect_status 0
	head -1 "$OUT" | grep -q '^usage: ncgrind \[FILE...|-\]'
	assert_grep '       ncgrind --dump=functions|calls [--format=text|tsv|json]' "$OUT"
	assert_grep '       ncgrind --script=KEYS [--size=COLSxROWS] FILE' "$OUT"
	assert_grep 'FILE|-' "$OUT"
	ncg --version
	expect_status 0
	grep -Eqx 'ncgrind [0-9]+(\.[0-9]+)+' "$OUT"
}

@test "usage: --stats writes its figures on stderr only" {
	ncg --stats --format=tsv "$FIX/spec/spec-extended.callgrind"
	expect_status 0
	expect_tsv <<'EOF'
function | file | object | calls | self:Instructions | incl:Instructions
func2 | file2.c |  | 5 | 700 | 700
func1 | file1.c |  | 1 | 100 | 400
main | file1.c |  | 0 | 20 | 820
EOF
	# 3 functions, 3 call edges (main->func1, main->func2, func1->func2), no cycle
	assert_grep '3 functions, 3 call edges' "$ERR"
	assert_grep '0 cycles' "$ERR"
	# the anonymous memory at its highest, once the report is out: its last line
	tail -1 "$ERR" | grep -Eq '^ncgrind: RssAnon peak [0-9]+ kB \([0-9.]+% of the file\) from the start to the report.s end$'
}

@test "messages: at most 50, then 'FILE: N more messages not shown'" {
	# 53 bad cost lines (lines 5..57), one good one (line 58)
	{
		printf '# callgrind format\nevents: Ir\nfl=a.c\nfn=main\n'
		for i in $(seq 1 53); do echo "$i x$i"; done
		echo "99 7"
	} >"$BATS_TEST_TMPDIR/many.callgrind"
	cd "$BATS_TEST_TMPDIR"
	ncg --format=tsv many.callgrind
	expect_status 1
	[ "$(wc -l <"$ERR")" -eq 51 ]
	head -1 "$ERR" | grep -qx "many.callgrind:5: bad cost 'x1'; line ignored"
	sed -n 50p "$ERR" | grep -qx "many.callgrind:54: bad cost 'x50'; line ignored"
	tail -1 "$ERR" | grep -qx "many.callgrind: 3 more messages not shown"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
main | a.c |  | 0 | 7 | 7
EOF
}

@test "usage: an unknown event lists the profile's events escaped, a name with % is no format" {
	# hostile/event-name.callgrind's event names hold escape sequences: they reach
	# stderr escaped; an event named with % is printed as it is
	ncg --events='Ir,%s%n' --dump=functions "$P/sort.callgrind"
	expect_status 2
	head -1 "$ERR" | grep -qxF "ncgrind: unknown event '%s%n' (the profile has Ir, Dr)"
	ncg --events=Nope --dump=functions "$FIX/hostile/event-name.callgrind"
	expect_status 2
	refute_grep $'\033' "$ERR"
	head -1 "$ERR" | grep -q "^ncgrind: unknown event 'Nope' (the profile has "
}

@test "reports: 10,000 functions written by 1 and 3 threads are the same bytes, in every format" {
	# a function report of PAR_MIN_ROWS rows or more is written by --jobs threads
	# (report.c rows_write): f<i> costs i (self, one line), main calls each once;
	# names with a tab, a backslash and a quote go through the escapes
	cd "$BATS_TEST_TMPDIR"
	awk 'BEGIN {
		print "# callgrind format"; print "events: Ir"; print "fl=a.c"
		print "fn=main"; print "1 1"
		for (i = 1; i <= 10000; i++) { print "cfn=f" i; print "calls=1 1"; print "1 " i }
		for (i = 1; i <= 10000; i++) {
			name = "f" i
			print "fn=" name
			print "1 " i
		}
		print "fn=tab\tname"; print "1 7"
		print "fn=back\\\\slash \"quoted\""; print "1 7"
	}' >many.callgrind
	local fmt
	for fmt in tsv json text; do
		ncg --jobs=1 --dump=functions --format=$fmt many.callgrind
		expect_status 0
		cp "$OUT" one.$fmt
		ncg --jobs=3 --dump=functions --format=$fmt many.callgrind
		expect_status 0
		cmp one.$fmt "$OUT"
	done
	# by hand: f5000 costs 5000, called once; main 1 + (1 + ... + 10000) = 50,005,001
	assert_grep "$(printf 'f5000\ta.c\t\t1\t5000\t5000')" one.tsv
	assert_grep "$(printf 'main\ta.c\t\t0\t1\t50005001')" one.tsv
	[ "$(wc -l <one.tsv)" -eq 10004 ] # the head, main, 10,000 f<i> and the two others
}
