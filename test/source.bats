#!/usr/bin/env bats
# Annotated source in batch: --dump=lines against callgrind_annotate --auto=yes,
# --dump=source with -I, --substitute-path, a source beside the profile, a missing
# file and inlined files.

load test_helper

SRC="$BATS_TEST_DIRNAME/fixtures/src"
BESIDE="$BATS_TEST_DIRNAME/fixtures/beside"

# A copy of the sources older than the profiles (no "newer" warning).
old_sources() {
	mkdir -p "$BATS_TEST_TMPDIR/src"
	cp "$SRC/recur.c" "$BATS_TEST_TMPDIR/src/"
	touch -d '2000-01-01' "$BATS_TEST_TMPDIR/src/recur.c"
}

# The example profile alone in a directory, as $PROF, written in 2001 (after the old
# sources): in fixtures/ it would find fixtures/src/recur.c beside it (src/recur.c
# is a trailing part of its fl=).
lone_profile() {
	mkdir -p "$BATS_TEST_TMPDIR/lone"
	PROF="$BATS_TEST_TMPDIR/lone/example.callgrind"
	cp "$FIX/example.callgrind" "$PROF"
	touch -d '2001-01-01' "$PROF"
}

@test "lines: every line of recur.c costs what callgrind_annotate --auto=yes says" {
	# The oracle annotates recur.c with the self cost of each line summed over all
	# functions; --dump=lines gives the same sums. Parse its numbered lines
	# ("-- line N ---" then one row per source line; "=>" rows are calls).
	awk '/^-- Auto-annotated source: \/home\/dev\/corpus\/src\/recur.c/ { on = 1; next }
	     /^-- Auto-annotated source/ { on = 0 }
	     on && /^-- line [0-9]+ -/ { n = $3; next }
	     on && n && /=>/ { next }
	     on && n && /^ *([0-9,]+|\.) / { if ($1 != ".") { gsub(",", "", $1); print n "\t" $1 } n++ }' \
		"$FIX/oracle/recur-default.annotate-auto.txt" | sed '$d' >"$BATS_TEST_TMPDIR/want"
	# not vacuous: the oracle has its 74 lines with cost
	[ "$(wc -l <"$BATS_TEST_TMPDIR/want")" -eq 74 ]
	ncg --dump=lines --format=tsv "$FIX/example.callgrind"
	expect_status 0
	awk -F'\t' '$1 == "/home/dev/corpus/src/recur.c" && $3 != 0 { print $2 "\t" $3 }' "$OUT" \
		>"$BATS_TEST_TMPDIR/got"
	diff -u "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
}

@test "source: fib annotated, found through --substitute-path" {
	# fib (recur.c:16) costs 20 self on line 16 (11 + 5 + 4) and calls fib'2 twice
	# there: 216,460 + 133,772 = 350,232 (2.66% of 13,143,514). Context: 2 lines.
	old_sources
	ncg --dump=source --function='^fib$' --context=2 \
		--substitute-path=/home/dev/corpus/src="$BATS_TEST_TMPDIR/src" "$FIX/example.callgrind"
	expect_status 0
	expect_out <<'EOF2'
        Ir           source
--------------------------------------------------------------------------------
-- function fib
-- file /home/dev/corpus/src/recur.c
-- line 14 ----------------------------------------
         .           NOINL int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }
         .           
        20 ( 0.00%)  NOINL unsigned long fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
   350,232 ( 2.66%)  => fib'2 (2 times)
         .           
         .           typedef unsigned long (*ringfn)(unsigned depth, unsigned long acc);
EOF2
}

@test "source: -I DIR finds the file by its path below DIR or by its base name" {
	old_sources
	lone_profile
	ncg --dump=source --function='^fib$' --context=0 -I "$BATS_TEST_TMPDIR/src" "$PROF"
	expect_status 0
	assert_grep "        20 ( 0.00%)  NOINL unsigned long fib(unsigned n)" "$OUT"
	refute_grep "not found" "$OUT"
}

@test "source: a source newer than the profile is flagged" {
	old_sources
	lone_profile
	touch "$BATS_TEST_TMPDIR/src/recur.c"
	ncg --dump=source --function='^fib$' --context=0 -I "$BATS_TEST_TMPDIR/src" "$PROF"
	assert_grep "-- warning: the source is newer than the profile" "$OUT"
}

@test "source: not found, the paths tried and how to add one; the lines with cost stay" {
	# as written; then its trailing components under the profile's directory (.),
	# longest first; then under -I nowhere, its path and its base name
	cd "$BATS_TEST_TMPDIR"
	cp "$FIX/example.callgrind" prof.callgrind
	ncg --dump=source --function='^fib$' -I nowhere prof.callgrind
	expect_status 0
	expect_out <<'EOF2'
        Ir           source
--------------------------------------------------------------------------------
-- function fib
-- file /home/dev/corpus/src/recur.c
-- not found; tried:
--   /home/dev/corpus/src/recur.c
--   ./home/dev/corpus/src/recur.c
--   ./dev/corpus/src/recur.c
--   ./corpus/src/recur.c
--   ./src/recur.c
--   ./recur.c
--   nowhere/home/dev/corpus/src/recur.c
--   nowhere/recur.c
-- add a directory with -I DIR, or a rule with --substitute-path=FROM=TO
-- line 16 ----------------------------------------
        20 ( 0.00%)  (line 16)
   350,232 ( 2.66%)  => fib'2 (2 times)
EOF2
}

@test "source: a profile copied with its source: fl= names another place, the file lies beside it" {
	# count_words costs 30 and 12 Ir on lines 5 and 6 (of 48 Ir in all: 62.50% and
	# 25.00%); with --context=1, lines 4 to 7. wordfreq.c is found as prof/wordfreq.c.
	beside wordfreq.c
	cd "$BATS_TEST_TMPDIR"
	ncg --dump=source --function='^count_words$' --context=1 prof/wordfreq.callgrind
	expect_status 0
	expect_out <<'EOF2'
Ir           source
--------------------------------------------------------------------------------
-- function count_words
-- file /home/dev/hidden/wordfreq.c
-- line 4 ----------------------------------------
 .           {
30 (62.50%)      int n = 0; for (; *s; s++) n += *s == ' ';
12 (25.00%)      return n + 1;
 .           }
EOF2
}

@test "source: beside the profile, the longest trailing path wins: hidden/wordfreq.c, then wordfreq.c" {
	# hidden/wordfreq.c is wordfreq.c with " /* hidden */" at the end of each line
	beside wordfreq.c hidden/wordfreq.c
	cd "$BATS_TEST_TMPDIR"
	cat >want <<'EOF2'
Ir           source
--------------------------------------------------------------------------------
-- function count_words
-- file /home/dev/hidden/wordfreq.c
-- line 4 ----------------------------------------
 .           { /* hidden */
30 (62.50%)      int n = 0; for (; *s; s++) n += *s == ' '; /* hidden */
12 (25.00%)      return n + 1; /* hidden */
 .           } /* hidden */
EOF2
	ncg --dump=source --function='^count_words$' --context=1 prof/wordfreq.callgrind
	expect_status 0
	expect_out <want
	# and alone
	rm prof/wordfreq.c
	ncg --dump=source --function='^count_words$' --context=1 prof/wordfreq.callgrind
	expect_status 0
	expect_out <want
}

@test "source: each path is tried once; trailing components skip empty, . and .." {
	# -I . repeats what the profile's directory (.) gave: ./../..//etc/./nosuch.c and
	# ./nosuch.c are listed once. Under the profile's directory the trailing
	# components are etc/nosuch.c and nosuch.c: none climbs out of it.
	cd "$BATS_TEST_TMPDIR"
	printf 'events: Ir\nfl=../..//etc/./nosuch.c\nfn=f\n3 7\n' >climb.callgrind
	ncg --dump=source --function='^f$' -I . climb.callgrind
	expect_status 0
	expect_out <<'EOF2'
Ir           source
--------------------------------------------------------------------------------
-- function f
-- file ../..//etc/./nosuch.c
-- not found; tried:
--   ../..//etc/./nosuch.c
--   ./../..//etc/./nosuch.c
--   ./etc/nosuch.c
--   ./nosuch.c
-- add a directory with -I DIR, or a rule with --substitute-path=FROM=TO
-- line 3 ----------------------------------------
 7 (100.00%)  (line 3)
EOF2
}

@test "source: the paths tried come from the profile: escaped like every name" {
	# an OSC 52 (clipboard) and an OSC 2 (window title) in fl= must reach no terminal
	cd "$BATS_TEST_TMPDIR"
	printf 'events: Ir\nfl=/nonexistent/\033]52;c;cHduZWQ=\007\033]2;PWNED-TITLE\007x.c\nfn=main\n1 5\n' \
		>osc.callgrind
	ncg --dump=source --function='^main$' osc.callgrind
	expect_status 0
	expect_out <<'EOF2'
Ir           source
--------------------------------------------------------------------------------
-- function main
-- file /nonexistent/\x1b]52;c;cHduZWQ=\x07\x1b]2;PWNED-TITLE\x07x.c
-- not found; tried:
--   /nonexistent/\x1b]52;c;cHduZWQ=\x07\x1b]2;PWNED-TITLE\x07x.c
--   ./nonexistent/\x1b]52;c;cHduZWQ=\x07\x1b]2;PWNED-TITLE\x07x.c
--   ./\x1b]52;c;cHduZWQ=\x07\x1b]2;PWNED-TITLE\x07x.c
-- add a directory with -I DIR, or a rule with --substitute-path=FROM=TO
 5 (100.00%)  (line 1)
EOF2
}

@test "source: a function with inlined code has one section per file, in file order" {
	# edge-fi-fe-inlining (total Ir 620: main 120, compute 500): main's self cost lies
	# in /src/main.c (lines 10-14: 5, 3, 2, 1, 1 Ir), /src/vec.h (lines 7-8: 40, 60)
	# and string_fortified.h (line 29: 8); the call to compute (5x, 500 Ir = 80.65%)
	# is on main.c:13. Only the costs are compared: string_fortified.h may exist on
	# the machine (its text then replaces "(line 29)").
	ncg --dump=source --function='^main$' --events=Ir "$FIX/edge/edge-fi-fe-inlining.callgrind"
	expect_status 0
	grep -E '^-- file|^ *[0-9,]+ \(' "$OUT" |
		sed -E 's/^( *[0-9,]+ \([ 0-9.]+%\))  (=> .*)?.*$/\1  \2/; s/ *$//' >"$BATS_TEST_TMPDIR/got"
	diff -u - "$BATS_TEST_TMPDIR/got" <<'EOF2'
-- file /src/main.c
  5 ( 0.81%)
  3 ( 0.48%)
  2 ( 0.32%)
  1 ( 0.16%)
500 (80.65%)  => compute (5 times)
  1 ( 0.16%)
-- file /src/vec.h
 40 ( 6.45%)
 60 ( 9.68%)
-- file /usr/include/x86_64-linux-gnu/bits/string_fortified.h
  8 ( 1.29%)
EOF2
}

@test "source: errors" {
	ncg --dump=source "$FIX/example.callgrind"
	expect_status 1
	expect_err <<'EOF2'
ncgrind: --dump=source needs --function=REGEX
EOF2
	ncg --dump=source --function=nothing_like_this "$FIX/example.callgrind"
	expect_status 1
	ncg --dump=source --function=x --substitute-path=noequals "$FIX/example.callgrind"
	expect_status 2
}

@test "source: --dump=source does not look for '???' (code without debug information)" {
	printf '%s\n' '# callgrind format' 'events: Ir' 'fl=???' 'fn=nodebug' '0 42' \
		>"$BATS_TEST_TMPDIR/nodebug.callgrind"
	ncg --dump=source --function=nodebug "$BATS_TEST_TMPDIR/nodebug.callgrind"
	expect_status 0
	sed -n '3,6p' "$OUT" >"$OUT.part"
	mv "$OUT.part" "$OUT"
	expect_out <<'EOF2'
-- function nodebug
-- file ???
-- no source file: the code has no debug information (compiled without -g?)
42 (100.00%)  (no line information)
EOF2
}

# oracle_recur: recur.c's lines with cost, "LINE<TAB>Ir", from callgrind_annotate --auto=yes
oracle_recur() {
	awk '/^-- Auto-annotated source: \/home\/dev\/corpus\/src\/recur.c/ { on = 1; next }
	     /^-- Auto-annotated source/ { on = 0 }
	     on && /^-- line [0-9]+ -/ { n = $3; next }
	     on && n && /=>/ { next }
	     on && n && /^ *([0-9,]+|\.) / { if ($1 != ".") { gsub(",", "", $1); print n "\t" $1 } n++ }' \
		"$FIX/oracle/recur-default.annotate-auto.txt" | sed '$d'
}

@test "lines: --format=json, per file its lines and their costs, as callgrind_annotate --auto=yes says" {
	oracle_recur >"$BATS_TEST_TMPDIR/want"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/want")" -eq 74 ]
	ncg --dump=lines --format=json "$FIX/example.callgrind"
	expect_status 0
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	python3 - "$OUT" >"$BATS_TEST_TMPDIR/got" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["totals"] == {"Ir": 13143514}, d["totals"]
assert d["filters"] is None
files = [f["file"] for f in d["files"]]
assert files == sorted(files) and len(files) == len(set(files)), files
recur = [f for f in d["files"] if f["file"] == "/home/dev/corpus/src/recur.c"][0]
numbers = [l["line"] for l in recur["lines"]]
assert numbers == sorted(numbers), numbers
for l in recur["lines"]:
    if l["self"]["Ir"]:
        print("%d\t%d" % (l["line"], l["self"]["Ir"]))
EOF2
	diff -u "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
}

@test "lines: --command filters narrow it to the lines of the functions kept; hide is refused" {
	# spec-extended: main (file1.c:16, 20), func1 (file1.c:51, 100), func2 (file2.c:20,
	# 700). file:file2 keeps func2; ignore ^func1$ drops func1 only (main calls func2).
	X="$FIX/spec/spec-extended.callgrind"
	ncg --dump=lines --command='filter file:file2' "$X"
	expect_status 0
	expect_tsv <<'EOF2'
file | line | self:Instructions
file2.c | 20 | 700
EOF2
	ncg --dump=lines --command='ignore ^func1$' "$X"
	expect_tsv <<'EOF2'
file | line | self:Instructions
file1.c | 16 | 20
file2.c | 20 | 700
EOF2
	ncg --dump=lines --format=json --command='filter file:file2' "$X"
	expect_status 0
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	python3 - "$OUT" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["filters"] == "filter file:file2", d["filters"]
assert d["files"] == [{"file": "file2.c", "lines": [{"line": 20, "self": {"Instructions": 700}}]}], d["files"]
EOF2
	ncg --dump=lines --command='hide ^func1$' "$X"
	expect_status 2
	assert_grep "hide shapes call trees; --dump=lines takes filter, focus and ignore" "$ERR"
}

@test "source: --format=json: the file found, its lines' text, self costs and calls" {
	# fib as in the text above: line 16 costs 20 and calls fib'2 twice (350,232);
	# with --context=2 lines 14 to 18, their text that of recur.c
	old_sources
	ncg --dump=source --function='^fib$' --context=2 --format=json \
		--substitute-path=/home/dev/corpus/src="$BATS_TEST_TMPDIR/src" "$FIX/example.callgrind"
	expect_status 0
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	python3 - "$OUT" "$BATS_TEST_TMPDIR/src/recur.c" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
src = open(sys.argv[2]).read().split("\n")
assert d["totals"] == {"Ir": 13143514} and d["filters"] is None
[f] = d["functions"]
assert (f["function"], f["file"]) == ("fib", "/home/dev/corpus/src/recur.c"), f
[file] = f["files"]
assert file["path"] == "/home/dev/corpus/src/recur.c"
assert file["found"] and file["read_from"] == sys.argv[2] and not file["newer"]
assert file["tried"] == [] and not file["no_debug_info"]
assert [l["line"] for l in file["lines"]] == [14, 15, 16, 17, 18]
for l in file["lines"]:
    assert l["text"] == src[l["line"] - 1], l
    if l["line"] == 16:
        assert l["self"] == {"Ir": 20}, l
        assert l["calls"] == [{"callee": "fib'2", "count": 2, "incl": {"Ir": 350232}}], l
    else:
        assert l["self"] == {"Ir": 0} and l["calls"] == [], l
EOF2
}

@test "source: --format=json: a file not found has the paths tried, its lines no text" {
	cd "$BATS_TEST_TMPDIR"
	cp "$FIX/example.callgrind" prof.callgrind
	ncg --dump=source --function='^fib$' -I nowhere --format=json prof.callgrind
	expect_status 0
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	python3 - "$OUT" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
[file] = d["functions"][0]["files"]
assert not file["found"] and file["read_from"] is None and not file["no_debug_info"]
tried = [t["path"] for t in file["tried"]]
assert tried == ["/home/dev/corpus/src/recur.c", "./home/dev/corpus/src/recur.c",
                 "./dev/corpus/src/recur.c", "./corpus/src/recur.c", "./src/recur.c",
                 "./recur.c", "nowhere/home/dev/corpus/src/recur.c", "nowhere/recur.c"], tried
assert all(t["why"] is None for t in file["tried"])
assert file["lines"] == [{"line": 16, "text": None, "self": {"Ir": 20},
                          "calls": [{"callee": "fib'2", "count": 2, "incl": {"Ir": 350232}}]}], file["lines"]
EOF2
}

@test "source: --format=json: a line's text is a JSON string: controls escaped, a byte not UTF-8 as \\xNN" {
	# line 1: a, TAB, b, ESC [31m, c, the byte 0xff, d, é
	cd "$BATS_TEST_TMPDIR"
	printf 'a\tb\033[31mc\377d\303\251\n' >esc.c
	printf 'events: Ir\nfl=esc.c\nfn=main\n1 5\n' >esc.callgrind
	ncg --dump=source --function='^main$' --format=json esc.callgrind
	expect_status 0
	# what a terminal would act on never reaches the output raw
	refute_grep $'\033' "$OUT"
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	python3 - "$OUT" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
[l] = d["functions"][0]["files"][0]["lines"]
assert l["text"] == "a\tb\x1b[31mc\\xffd\u00e9", repr(l["text"])
assert l["self"] == {"Ir": 5}
EOF2
}

@test "source: --command filters narrow the functions and the head says which; tsv is refused" {
	# spec-extended: --function=. matches main, func1, func2; file:file2 keeps func2
	X="$FIX/spec/spec-extended.callgrind"
	ncg --dump=source --function=. --command='filter file:file2' "$X"
	expect_status 0
	grep -E '^(Filters|-- function)' "$OUT" >"$OUT.f"
	mv "$OUT.f" "$OUT"
	expect_out <<'EOF2'
Filters:     filter file:file2
-- function func2
EOF2
	ncg --dump=source --function=. --format=json --command='ignore ^func1$' "$X"
	expect_status 0
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	python3 - "$OUT" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["filters"] == "ignore ^func1$", d["filters"]
# by inclusive cost: main 820, func2 700
assert [f["function"] for f in d["functions"]] == ["main", "func2"], d["functions"]
EOF2
	ncg --dump=source --function='^func1$' --command='filter file:file2' "$X"
	expect_status 1
	assert_grep "no function the filters keep matches '^func1\$'" "$ERR"
	ncg --dump=source --function=. --format=tsv "$X"
	expect_status 2
	assert_grep "--dump=source writes text or json" "$ERR"
	ncg --dump=source --function=. --command='hide main' "$X"
	expect_status 2
	assert_grep "hide shapes call trees; --dump=source takes filter, focus and ignore" "$ERR"
}
