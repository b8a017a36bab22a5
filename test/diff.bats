#!/usr/bin/env bats
# Diffs (issue 16): --diff BASE NEW, the functions of both matched by (object's
# base name, file, name) after the --mod-* rules. The fixtures in
# test/fixtures/diff are made by valgrind from test/fixtures/src/diffprog.c built
# twice, as version1/prog.c and as version2/prog.c (-DV2: work_b three times
# slower, old_helper gone, new_helper new); the expected changes come from
# Valgrind's own cg_diff + cg_annotate on the cachegrind files:
#   cg_diff --mod-filename='s/version[0-9]/versionN/' version1.cachegrind version2.cachegrind
#   300,001  versionN/prog.c:work_b   -12,002 old_helper   6,002 new_helper
#   293,982  PROGRAM TOTALS (the net change)

load test_helper

D="$BATS_TEST_DIRNAME/fixtures/diff"
RULE='s/version[0-9]/versionN/'

@test "diff: a profile against itself is all zeros, every function matched" {
	local f=$FIX/recursion/mutual.callgrind n
	[ -f "$f" ] || f=$FIX/example.callgrind
	ncg --dump=functions --format=tsv "$f"
	n=$(($(wc -l <"$OUT") - 1))
	ncg --diff --format=tsv "$f" "$f"
	expect_status 0
	expect_no_err
	[ "$(($(wc -l <"$OUT") - 1))" -eq "$n" ]
	# every row: matched; each event's self and incl change 0, pct +0.00, ratio 1.000 or -
	awk -F'\t' 'NR > 1 { if ($4 != "matched") bad++
		for (i = 5; i <= NF; i += 5) if ($(i + 2) != "0" || ($(i + 4) != "1.000" && $(i + 4) != "-")) bad++ }
		END { exit bad > 0 }' "$OUT"
	ncg --diff "$f" "$f"
	assert_grep "Functions: $n matched, 0 only in the base (gone, self 0), 0 only in the new (new, self 0)" "$OUT"
}

@test "diff: two builds of one program: the slower function first, the changes cg_diff gives" {
	ncg --diff --mod-filename="$RULE" --format=tsv "$D/version1.cachegrind" "$D/version2.cachegrind"
	expect_status 0
	# the first rows: the biggest changes, as cg_diff sees them
	awk -F'\t' 'NR > 1 && NR <= 4 { print $1, $4, $7 }' "$OUT" >"$BATS_TEST_TMPDIR/top"
	cat >"$BATS_TEST_TMPDIR/want" <<'EOF'
work_b matched +300001
old_helper gone -12002
new_helper new +6002
EOF
	diff -u "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/top"
	# the change as a share of the base's total, 570,011: 300,001 is 52.63%
	awk -F'\t' '$1 == "work_b" { print $5, $6, $8, $9 }' "$OUT" >"$BATS_TEST_TMPDIR/wb"
	echo "150005 450006 +52.63 3.000" | diff -u - "$BATS_TEST_TMPDIR/wb"
	ncg --diff --mod-filename="$RULE" "$D/version1.cachegrind" "$D/version2.cachegrind"
	assert_grep 'Event Ir: base total 570,011, new total 863,993, change +293,982 (+51.57% of the base)' "$OUT"
}

@test "diff: every change is the difference of the two profiles' own reports" {
	# callgrind files this time: self and inclusive costs of each function in each
	# report, joined in awk by (name, file, object), the rule applied by hand to the
	# paths (the diff matches objects by their base names: prog in both)
	local t=$BATS_TEST_TMPDIR
	ncg --dump=functions --format=tsv "$D/version1.callgrind"
	sed 's/version[0-9]/versionN/g' "$OUT" >"$t/base"
	ncg --dump=functions --format=tsv "$D/version2.callgrind"
	sed 's/version[0-9]/versionN/g' "$OUT" >"$t/new"
	awk -F'\t' 'FNR == 1 { next } { x = $1 FS $2 FS $3; k[x] = 1 }
		FILENAME ~ /base$/ { s[x] = $5; i[x] = $6; next } { n2[x] = $5; ni[x] = $6 }
		END { for (x in k) printf "%s\t%d\t%d\n", x, n2[x] - s[x], ni[x] - i[x] }' \
		"$t/base" "$t/new" | LC_ALL=C sort >"$t/want"
	ncg --diff --mod-filename="$RULE" --format=tsv "$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 0
	sed 's/version[0-9]/versionN/g' "$OUT" |
		awk -F'\t' 'NR > 1 { printf "%s\t%s\t%s\t%d\t%d\n", $1, $2, $3, $7, $12 }' |
		LC_ALL=C sort >"$t/got"
	[ "$(wc -l <"$t/got")" -gt 200 ]
	diff -u "$t/want" "$t/got"
}

@test "diff: without the rule the two builds' prog.c differ in the directory only: matched; --strict-files: gone and new" {
	# /tmp/me/diffrun/version1/prog.c and .../version2/prog.c: work_a, work_b and main
	# are alone under their names in prog on each side, in files named prog.c
	ncg --diff --format=tsv "$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 0
	awk -F'\t' '$1 == "work_b" { print $2, $4, $5, $6, $7 }' "$OUT" >"$BATS_TEST_TMPDIR/wb"
	echo '/tmp/me/diffrun/version2/prog.c matched-dir 150005 450006 +300001' |
		diff -u - "$BATS_TEST_TMPDIR/wb"
	ncg --diff "$D/version1.callgrind" "$D/version2.callgrind"
	# 242 matched before + work_a, work_b, main; gone: old_helper and one address
	assert_grep 'Functions: 245 matched (3 across directories), 2 only in the base' "$OUT"
	refute_grep 'mod-filename' "$OUT"
	ncg --diff --strict-files --format=tsv "$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 0
	[ "$(grep -c $'^work_b\t' "$OUT")" -eq 2 ]
	assert_grep $'work_b\t/tmp/me/diffrun/version1/prog.c\t/tmp/me/diffrun/version1/prog\tgone' "$OUT"
	assert_grep $'work_b\t/tmp/me/diffrun/version2/prog.c\t/tmp/me/diffrun/version2/prog\tnew' "$OUT"
	refute_grep 'matched-dir' "$OUT"
	ncg --diff --strict-files "$D/version1.callgrind" "$D/version2.callgrind"
	assert_grep 'Functions: 242 matched, 5 only in the base' "$OUT"
	assert_grep 'Of them 3 gone and 3 new are named in another file of the other side: --mod-filename=s/FROM/TO/ matches them' "$OUT"
}

@test "diff: --mod-funcname makes generated names equal (GCC's T.1234 of cg_annotate's manual)" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' 'events: Ir' 'fl=a.c' 'fn=main' '1 5' 'fn=T.1234' '2 10' >a.cg
	printf '%s\n' 'events: Ir' 'fl=a.c' 'fn=main' '1 5' 'fn=T.5678' '2 25' >b.cg
	ncg --diff --format=tsv a.cg b.cg
	awk -F'\t' 'NR > 1 { print $1, $4 }' "$OUT" | LC_ALL=C sort >got
	printf '%s\n' 'T.1234 gone' 'T.5678 new' 'main matched' | diff -u - got
	ncg --diff --mod-funcname='s/T\.[0-9]+/T.N/' --format=tsv a.cg b.cg
	awk -F'\t' 'NR > 1 { print $1, $4, $7 }' "$OUT" >got
	# the new side names the row; 25 - 10 = +15, main unchanged
	printf '%s\n' 'T.5678 matched +15' 'main matched 0' | diff -u - got
}

@test "diff: rules apply in order; g, i and \\1; a bad rule is a usage error" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' 'events: Ir' 'fl=/build/A/x.c' 'fn=Foo_v1_v1' '1 5' >a.cg
	printf '%s\n' 'events: Ir' 'fl=/build/B/x.c' 'fn=foo_v2_v2' '1 7' >b.cg
	# file: /build/A/x.c and /build/B/x.c to /build/x.c; name: every _vN dropped (g:
	# Foo, foo), then foo in any case to FOO (i), then F and OO swapped (\1, \2): OOF
	ncg --diff --format=tsv --mod-filename='s|/build/[A-Z]/|/build/|' \
		--mod-funcname='s/_v[0-9]//g' --mod-funcname='s/^foo$/FOO/i' \
		--mod-funcname='s/^(F)(OO)$/\2\1/' a.cg b.cg
	expect_status 0
	awk -F'\t' 'NR > 1 { print $4, $7 }' "$OUT" >got
	echo 'matched +2' | diff -u - got
	ncg --diff --mod-funcname='s/a/b' a.cg b.cg
	expect_status 2
	assert_grep "ncgrind: 's/a/b' is not s/REGEX/REPLACEMENT/ (a / is missing)" "$ERR"
	ncg --diff --mod-funcname='s/(/b/' a.cg b.cg
	expect_status 2
	ncg --diff --mod-funcname='s/a/b/x' a.cg b.cg
	expect_status 2
	assert_grep "unknown flag 'x' (g, i)" "$ERR"
	ncg --diff a.cg
	expect_status 2
	assert_grep 'ncgrind: --diff wants two profiles: BASE NEW' "$ERR"
}

@test "diff: json has both sides' totals, what is unmatched, and every function's five values" {
	ncg --diff --mod-filename="$RULE" --format=json "$D/version1.cachegrind" "$D/version2.cachegrind"
	expect_status 0
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	python3 - "$OUT" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["base"]["totals"]["Ir"] == 570011, d["base"]
assert d["new"]["totals"]["Ir"] == 863993
assert d["base"]["unmatched"]["Ir"] == 12002 and d["new"]["unmatched"]["Ir"] == 6002
wb = [f for f in d["functions"] if f["name"] == "work_b"][0]
assert wb["status"] == "matched"
assert wb["self"]["Ir"] == {"base": 150005, "new": 450006, "change": 300001, "pct": 52.63, "ratio": 3.0}, wb
nh = [f for f in d["functions"] if f["name"] == "new_helper"][0]
assert nh["status"] == "new" and nh["self"]["Ir"]["ratio"] is None
assert d["functions"][0]["name"] == "work_b"
EOF
}

@test "diff browser: the functions by change; s again: most grown first; Enter: the calls as a diff" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' ':save-screen d0' 's' ':save-screen d1' 's' ':save-screen d2' 'Enter' \
		':save-screen d3' 'Enter' ':save-screen d4' 'q' 'q' ':diff off' ':save-screen d5' >keys
	"$NCGRIND" --diff --mod-filename="$RULE" --script=keys --size=100x12 \
		"$D/version1.callgrind" "$D/version2.callgrind"
	# the callgrind files: their summary: lines 568,853 and 862,835 (+293,982, 51.68% of
	# the base); the functions' changes those of cg_diff, +300,001 is 52.74% of 568,853
	sed -n '2p;5,7p' d0 >"$OUT"
	expect_out <<'EOF'
Ir: base 568,853, new 862,835, change +293,982 (+51.68% of the base)
       150,005        450,006       +300,001   +52.74%    3.000        work_b
        12,002              0        -12,002    -2.11%    0.000  gone  old_helper
             0          6,002         +6,002    +1.06%      inf  new   new_helper
EOF
	assert_grep 'self, most grown first' d1
	sed -n '6p' d1 | grep -q 'new_helper'
	# most shrunk first: old_helper, then the small libc changes
	assert_grep 'self, most shrunk first' d2
	sed -n '5p' d2 | grep -q 'old_helper'
	# Enter on old_helper (first, most shrunk): its one caller, main, whose call is gone
	assert_grep 'ncgrind: diff, callers and callees of old_helper' d3
	assert_grep '        12,002              0        -12,002    -2.11%  gone  main (calls 1 -> 0)' d3
	# Enter on main: its callees by change, work_b first
	assert_grep 'ncgrind: diff, callers and callees of main' d4
	sed -n '/^Callees/{n;p}' d4 >"$OUT"
	expect_out <<'EOF'
       150,005        450,006       +300,001   +52.74%        work_b (calls 1 -> 1)
EOF
	# :diff off: the new profile's own table
	sed -n '1,2p' d5 >"$OUT"
	expect_out <<EOF
ncgrind: $D/version2.callgrind  cmd: ./prog
Events: [Ir]   Total Ir: 862,835   Parts: 1
EOF
}

@test "diff browser: :diff FILE compares the open profile with FILE; a file that cannot be read: a message" {
	cd "$BATS_TEST_TMPDIR"
	cp "$D"/version1.cachegrind "$D"/version2.cachegrind .
	printf '%s\n' ':diff nothere' ':save-screen e0' ':diff version1.cachegrind' ':save-screen e1' >keys
	"$NCGRIND" --script=keys --size=100x12 --mod-funcname='s/x/x/' version2.cachegrind
	assert_grep 'nothere: cannot read: No such file or directory' e0
	assert_grep 'ncgrind: diff version1.cachegrind -> version2.cachegrind' e1
	# the two prog.c paths differ in the directory only: work_a, work_b and main are
	# matched all the same (335 + 3); old_helper 12,002 gone, new_helper 6,002 new
	assert_grep '338 matched (3 across directories), 1 gone (self 12,002), 1 new (self 6,002)' e1
	# --strict-files: as cg_diff without --mod-filename, those 3 are gone and new too;
	# base: work_a 280,005 + work_b 150,005 + old_helper 12,002 + main 13 = 442,025;
	# new: 280,005 + 450,006 + new_helper 6,002 + 13 = 736,026; the 6 named in the other file
	"$NCGRIND" --script=keys --size=120x12 --strict-files version2.cachegrind
	assert_grep '335 matched, 4 gone (self 442,025), 4 new (self 736,026); 6 in other files (--mod-filename)' e1
}

@test "diff: the calls: every change is the difference of the two profiles' call reports" {
	# joined in awk by (caller, its file, callee, its file) with the rule applied to
	# the paths by hand; calls of two objects under one key are summed on both sides
	local t=$BATS_TEST_TMPDIR
	ncg --dump=calls --format=tsv "$D/version1.callgrind"
	sed 's/version[0-9]/versionN/g' "$OUT" >"$t/base"
	ncg --dump=calls --format=tsv "$D/version2.callgrind"
	sed 's/version[0-9]/versionN/g' "$OUT" >"$t/new"
	awk -F'\t' 'FNR == 1 { next } { x = $1 FS $2 FS $3 FS $4; k[x] = 1 }
		FILENAME ~ /base$/ { c[x] -= $5; v[x] -= $6; next } { c[x] += $5; v[x] += $6 }
		END { for (x in k) printf "%s\t%d\t%d\n", x, c[x], v[x] }' "$t/base" "$t/new" |
		LC_ALL=C sort >"$t/want"
	ncg --diff --dump=calls --mod-filename="$RULE" --format=tsv "$D/version1.callgrind" \
		"$D/version2.callgrind"
	expect_status 0
	sed 's/version[0-9]/versionN/g' "$OUT" | awk -F'\t' 'NR > 1 { x = $1 FS $2 FS $3 FS $4
		k[x] = 1; c[x] += $8; v[x] += $11 } END { for (x in k) printf "%s\t%d\t%d\n", x, c[x], v[x] }' |
		LC_ALL=C sort >"$t/got"
	[ "$(wc -l <"$t/got")" -gt 200 ]
	diff -u "$t/want" "$t/got"
	# the first row: main -> work_b, three times the cost (cg_diff: +300,001)
	sed -n '2p' "$OUT" | cut -f1,3,5-13 >"$t/top"
	printf 'main\twork_b\tmatched\t1\t1\t0\t150005\t450006\t+300001\t+52.74\t3.000\n' |
		diff -u - "$t/top"
}

@test "diff: the source lines: every change is the difference of the two profiles' --dump=lines" {
	local t=$BATS_TEST_TMPDIR
	ncg --dump=lines "$D/version1.callgrind"
	sed 's/version[0-9]/versionN/g' "$OUT" >"$t/base"
	ncg --dump=lines "$D/version2.callgrind"
	sed 's/version[0-9]/versionN/g' "$OUT" >"$t/new"
	awk -F'\t' 'FNR == 1 { next } { x = $1 FS $2; k[x] = 1 }
		FILENAME ~ /base$/ { v[x] -= $3; next } { v[x] += $3 }
		END { for (x in k) printf "%s\t%d\n", x, v[x] }' "$t/base" "$t/new" |
		LC_ALL=C sort >"$t/want"
	ncg --diff --dump=lines --mod-filename="$RULE" "$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 0
	awk -F'\t' 'NR > 1 { printf "%s\t%s\t%d\n", $1, $2, $5 }' "$OUT" | LC_ALL=C sort >"$t/got"
	[ "$(wc -l <"$t/got")" -gt 100 ]
	diff -u "$t/want" "$t/got"
	# work_b's loop (lines 19 and 20 of diffprog.c) three times slower: +60,000 and +240,000
	grep -E $'/versionN/prog.c\t(19|20)\t' "$OUT" | cut -f2-6 >"$t/loop"
	printf '19\t30003\t90003\t+60000\t+10.55\n20\t120001\t360001\t+240000\t+42.19\n' |
		diff -u - "$t/loop"
}

@test "diff: annotated source, line by line; where the two builds' texts differ, the base is not set against the new lines" {
	# the profiles name /tmp/me/diffrun/version{1,2}/prog.c: copies of diffprog.c there,
	# found with --substitute-path. work_b's loop: +60,000 and +240,000 (see above);
	# line 17 (n *= 3, compiled in version 2 only): +1
	local t=$BATS_TEST_TMPDIR
	mkdir -p "$t/version1" "$t/version2"
	cp "$FIX/src/diffprog.c" "$t/version1/prog.c"
	cp "$FIX/src/diffprog.c" "$t/version2/prog.c"
	ncg --diff --dump=source --function='^work_b$' --mod-filename="$RULE" \
		--substitute-path="/tmp/me/diffrun=$t" "$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 0
	expect_out <<'EOF'
            Base              New           Change  source (self Ir)
--------------------------------------------------------------------------------
-- function work_b
-- file /tmp/me/diffrun/versionN/prog.c
               0                1               +1  	n *= 3;
          30,003           90,003          +60,000  	for (long i = 0; i < n; i++)
         120,001          360,001         +240,000  		sink += i % 5;
               1                1                0  }
EOF
	# version 2's text changed: its lines are shown alone, the base's cost in the file
	# (30,003 + 120,001 + 1 = 150,005) said once
	printf '/* a new first line */\n' | cat - "$FIX/src/diffprog.c" >"$t/version2/prog.c"
	ncg --diff --dump=source --function='^work_b$' --mod-filename="$RULE" \
		--substitute-path="/tmp/me/diffrun=$t" "$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 0
	assert_grep "-- the two builds' sources of this file differ: the base's lines (150,005 in all) are not set against these" "$OUT"
	# (the new costs on the new text as it now is: one line lower than the build's)
	assert_grep "               -           90,003                -  #endif" "$OUT"
	refute_grep '\+60,000' "$OUT"
}

# tree_paths TSV: "path<TAB>cost" per row of a --dump=tree tsv (single profile: col 5;
# diff: col BASE or NEW given), the path the names from the root joined by " > ",
# rows of one path summed (two functions of one name under one parent)
tree_paths() {
	awk -F'\t' -v col="$2" 'NR > 1 { path[$1] = $2; p = path[0]
		for (i = 1; i <= $1; i++) p = p " > " path[i]
		sum[p] += $col } END { for (p in sum) print p "\t" sum[p] }' "$1" | LC_ALL=C sort
}

@test "diff: call trees: each side of every node is that profile's own tree, call by call" {
	# --no-cycles: a diff's trees go call by call (the two sides' cycles need not be the
	# same). Every path of the diff tree costs, on each side, what that profile's own
	# tree gives it (calltree.c, checked against callgrind_annotate --tree by make
	# check-corpus), nodes of paths only one side has cost 0 on the other
	local t=$BATS_TEST_TMPDIR side col
	ncg --diff --dump=tree --format=tsv --threshold=0 --mod-filename="$RULE" \
		"$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 0
	cp "$OUT" "$t/diff"
	for side in 1 2; do
		ncg --dump=tree --format=tsv --threshold=0 --no-cycles "$D/version$side.callgrind"
		# (paths of cost 0 left out: the diff has the other side's paths too)
		tree_paths "$OUT" 5 | awk -F'\t' '$2 != 0' >"$t/own$side"
		col=$((side == 1 ? 7 : 8))
		tree_paths "$t/diff" $col | awk -F'\t' '$2 != 0' >"$t/diff$side"
		diff -u "$t/own$side" "$t/diff$side"
	done
	# by hand: work_b under main, 150,005 -> 450,006 (cg_diff: +300,001), and the
	# gone call to old_helper: 12,002 -> 0, its calls 1 -> 0
	awk -F'\t' '$2 == "work_b" || $2 == "old_helper" { print $2, $4, $5, $6, $7, $8, $9, $10 }' \
		"$t/diff" >"$OUT"
	expect_out <<'EOF'
work_b  1 1 150005 450006 +300001 +52.74
old_helper gone 1 0 12002 0 -12002 -2.11
EOF
}

@test "diff: call trees with recursion: against itself, both sides are the profile's own tree" {
	local t=$BATS_TEST_TMPDIR f
	for f in "$FIX/recursion/mutual.callgrind" "$FIX/recursion/ring.callgrind" \
		"$FIX/monkey/clique11.callgrind"; do
		ncg --diff --dump=tree --format=tsv --threshold=0.5 "$f" "$f"
		expect_status 0
		cp "$OUT" "$t/diff"
		# every node: the same on both sides, change 0
		awk -F'\t' 'NR > 1 && ($7 != $8 || $9 != "0") { bad++ } END { exit bad > 0 }' "$t/diff"
		ncg --dump=tree --format=tsv --threshold=0.5 --no-cycles "$f"
		tree_paths "$OUT" 5 >"$t/own"
		tree_paths "$t/diff" 7 >"$t/base"
		diff -u "$t/own" "$t/base"
		# recursion is marked, not followed
		grep -q $'\trecursive$' "$t/diff"
	done
}

@test "diff: call trees: --function, --inverted, json nested as the tree" {
	ncg --diff --dump=tree --inverted --function='^work_b$' --mod-filename="$RULE" \
		"$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 0
	# work_b's callers up to the entry point, each at work_b's cost on both sides
	grep -c '150,005          450,006         +300,001   +52.74' "$OUT" >"$BATS_TEST_TMPDIR/n"
	echo 6 | diff - "$BATS_TEST_TMPDIR/n"
	assert_grep 'Function, then its callers' "$OUT"
	ncg --diff --dump=tree --format=json --mod-filename="$RULE" \
		"$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 0
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	python3 - "$OUT" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["event"] == "Ir" and d["inverted"] is False
def find(n, name, path=()):
    path = path + (n["function"],)
    if n["function"] == name:
        return n, path
    for c in n["children"]:
        r = find(c, name, path)
        if r:
            return r
wb, path = [r for r in (find(t, "work_b") for t in d["trees"]) if r][0]
assert path[-2] == "main", path
assert wb["Ir"] == {"base": 150005, "new": 450006, "change": 300001, "pct": 52.74, "ratio": 3.0}, wb
assert wb["calls"] == {"base": 1, "new": 1}
root = d["trees"][0]
assert root["Ir"]["base"] == 568853 and root["Ir"]["new"] == 862835, root["Ir"]
EOF
	# a report that cannot be made exits 1, as the same report of one profile does
	ncg --diff --dump=tree --function=nothing "$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 1
	assert_grep "no function matches 'nothing'" "$ERR"
	ncg --dump=tree --function=nothing "$D/version2.callgrind"
	expect_status 1
	# a report a diff has not is a usage error: 2
	ncg --diff --dump=callers "$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 2
}

@test "diff browser: T, t, r: call trees as a diff, the biggest change's path open; Enter: its calls" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' 'T' ':save-screen t0' 'q' 's' 's' 't' ':save-screen t1' 'r' ':save-screen t2' \
		'j' 'Enter' ':save-screen t3' 'q' 'q' 'q' 'j' 'T' 'E' ':write w' >keys
	"$NCGRIND" --diff --mod-filename="$RULE" --script=keys --size=120x16 \
		"$D/version1.callgrind" "$D/version2.callgrind"
	# from the entry point down to main, then main's calls by change: work_b first
	assert_grep 'ncgrind: diff, call tree from the entry points, threshold 1%' t0
	assert_grep 'Ir total: base 568,853, new 862,835, change +293,982' t0
	sed -n '/ - main$/{n;p;n;p}' t0 >"$OUT"
	expect_out <<'EOF'
       150,005        450,006       +300,001   +52.74%                       1              work_b
        12,002              0        -12,002    -2.11% gone             1 -> 0              old_helper
EOF
	# s s: most shrunk first, old_helper; t: its tree (no callees), r: its callers
	assert_grep 'ncgrind: diff, call tree, threshold 1%' t1
	assert_grep 'Ir inclusive: base 12,002, new 0, change -12,002' t1
	assert_grep 'ncgrind: diff, callers, upward, threshold 1%' t2
	assert_grep '        12,002              0        -12,002    -2.11% gone call        1 -> 0    - main' t2
	# Enter on main: main's callers and callees as a diff
	assert_grep 'ncgrind: diff, callers and callees of main' t3
	# E from the top expands everything above the threshold: _dl_start's subtree too
	assert_grep '_dl_relocate_object' w
	assert_grep '- main' w
}

@test "diff browser: v: the source of both builds, lines around the costs; Tab, o; texts that differ" {
	# the same copies and lines as the --dump=source test above: work_b's loop +60,000
	# and +240,000, line 17 (version 2 only) +1, line 21 0; three lines around each
	local t=$BATS_TEST_TMPDIR
	mkdir -p "$t/version1" "$t/version2"
	cp "$FIX/src/diffprog.c" "$t/version1/prog.c"
	cp "$FIX/src/diffprog.c" "$t/version2/prog.c"
	cd "$t"
	printf '%s\n' 'v' ':save-screen v0' 'Tab' ':save-screen v1' 'o' ':save-screen v2' >keys
	"$NCGRIND" --diff --mod-filename="$RULE" --substitute-path="/tmp/me/diffrun=$t" \
		--script=keys --size=120x20 "$D/version1.callgrind" "$D/version2.callgrind"
	sed -n '1,2p;5,16p' v0 >"$OUT"
	expect_out <<'EOF'
ncgrind: diff, annotated source of work_b
Ir self: base 150,005, new 450,006, change +300,001
-- file /tmp/me/diffrun/versionN/prog.c
                                                  14  static void work_b(long n)
                                                  15  {
                                                  16  #ifdef V2
             0              1             +1      17          n *= 3;
                                                  18  #endif
        30,003         90,003        +60,000      19          for (long i = 0; i < n; i++)
       120,001        360,001       +240,000      20                  sink += i % 5;
             1              1              0      21  }
                                                  22
                                                  23  #ifdef V2
                                                  24  static __attribute__((noinline)) void new_helper(void)
EOF
	# the cursor on the biggest change (row 8 of 12), Tab: the next line with cost
	tail -1 v0 | grep -q '^8/12 '
	tail -1 v1 | grep -q '^9/12 '
	# o: the lines with cost only
	sed -n '6,9p' v2 | cut -c1-52 >"$OUT"
	expect_out <<'EOF'
             0              1             +1      17
        30,003         90,003        +60,000      19
       120,001        360,001       +240,000      20
             1              1              0      21
EOF
	# version 2's text changed: the new lines alone, the base's 150,005 in the file said once
	printf '/* a new first line */\n' | cat - "$FIX/src/diffprog.c" >"$t/version2/prog.c"
	printf '%s\n' 'v' 'o' ':save-screen v3' >keys
	"$NCGRIND" --diff --mod-filename="$RULE" --substitute-path="/tmp/me/diffrun=$t" \
		--script=keys --size=120x20 "$D/version1.callgrind" "$D/version2.callgrind"
	assert_grep "-- the two builds' texts of this file differ: the base's lines (150,005 in all) are not set against these" v3
	assert_grep "             -         90,003              -      19  #endif" v3
	refute_grep '\+60,000' v3
}

@test "diff: parts: the browser lists both sides' parts, each chosen on its own; --parts holds on both" {
	# base: the three thread files of one run (--separate-threads=yes), new: the
	# combined run's two parts; the costs are Valgrind's summary: lines of each
	local R=$FIX/runs
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' 'P' ':save-screen p0' 'j' 'Enter' 'q' ':parts t1' ':save-screen p1' \
		':parts base t3' ':save-screen p2' 'P' ':save-screen p3' >keys
	"$NCGRIND" --diff --script=keys --size=140x16 "$R/threads-sep/callgrind.out.26197" \
		"$R/threads-combined/callgrind.out.26252"
	assert_grep 'ncgrind: parts of both profiles' p0
	sed -n '5,9p' p0 | awk '{ print $1, $2, $3, $4, $6, $7 }' >"$OUT"
	expect_out <<'EOF'
* base 1 callgrind.out.26197-01 t1 281,879
* base 2 callgrind.out.26197-02 t2 300,283
* base 3 callgrind.out.26197-03 t3 600,283
* new 1 callgrind.out.26252 t1 281,807
* new 2 callgrind.out.26252 t2 900,571
EOF
	# Enter on the base's t2 (only it counts there), then :parts t1 on the new side:
	# 281,807 - 300,283 = -18,476, -6.15% of 300,283
	assert_grep 'Ir: base 300,283, new 281,807, change -18,476 (-6.15% of the base)' p1
	# :parts base t3: 281,807 - 600,283 = -318,476, -53.05%
	assert_grep 'Ir: base 600,283, new 281,807, change -318,476 (-53.05% of the base)' p2
	assert_grep 'base: 3 parts, 1 counts; new: 2 parts, 1 counts' p3
	# batch: --parts=t2 on both sides: 900,571 - 300,283 = +600,288, +199.91%
	ncg --diff --parts=t2 "$R/threads-sep/callgrind.out.26197" "$R/threads-combined/callgrind.out.26252"
	expect_status 0
	assert_grep 'Event Ir: base total 300,283, new total 900,571, change +600,288 (+199.91% of the base)' "$OUT"
}

@test "diff browser: Tab steps through the events of both profiles, those of the base only too" {
	# base: Ir and Dr, new: Ir only. Ir: 10 + 5 -> 12 + 5, +2 (13.33% of 15);
	# Dr: 4 + 7 -> nothing, -11 (-100%), f's -7 first
	cd "$BATS_TEST_TMPDIR"
	printf 'events: Ir Dr\nfl=a.c\nfn=main\n1 10 4\nfn=f\n2 5 7\n' >base.callgrind
	printf 'events: Ir\nfl=a.c\nfn=main\n1 12\nfn=f\n2 5\n' >new.callgrind
	printf '%s\n' ':save-screen e0' 'Tab' ':save-screen e1' 'Enter' ':save-screen e2' 'Tab' \
		':save-screen e3' 'q' 'q' 'Tab' ':save-screen e4' >keys
	"$NCGRIND" --diff --script=keys --size=100x10 base.callgrind new.callgrind
	assert_grep 'Ir: base 15, new 17, change +2 (+13.33% of the base)' e0
	assert_grep 'Dr: base 11, new 0, change -11 (-100.00% of the base)' e1
	sed -n 5p e1 | grep -q '             7              0             -7   -63.64%    0.000        f'
	assert_grep 'Dr: an event of the base only' e1
	# the calls screen of f in Dr, then Tab: back to Ir
	assert_grep 'Dr self: base 7, new 0, change -7' e2
	assert_grep 'Ir self: base 5, new 5, change 0' e3
	# the new profile's own table has one event
	assert_grep 'the profile has one event' e4
}

@test "diff screen: a big ratio or share is written shorter, never past its column" {
	# base: main 1,000, grow 1,000, tiny 1 (total 2,001); new: main 1,000, grow
	# 18,209,949, tiny 123,456,789. By hand: tiny's ratio 123456789 does not fit
	# the 8 columns, even whole: 1.2e+08; grow's 18209.949 keeps two decimals,
	# 18209.95. The shares of the base's total (%base, 9 columns with the %):
	# tiny +123,456,788 / 2,001 = +6169754.52%, whole +6169755%; grow
	# +18,208,949 / 2,001 = +909992.45%, whole +909992%. Before, the ratio
	# 18209.949 pushed the rest of its row one column right.
	cd "$BATS_TEST_TMPDIR"
	printf '# callgrind format\nevents: Ir\nfl=a.c\nfn=main\n1 1000\nfn=grow\n3 %s\nfn=tiny\n4 %s\n' \
		1000 1 >base.callgrind
	printf '# callgrind format\nevents: Ir\nfl=a.c\nfn=main\n1 1000\nfn=grow\n3 %s\nfn=tiny\n4 %s\n' \
		18209949 123456789 >new.callgrind
	printf '%s\n' ':save-screen d' >keys
	"$NCGRIND" --diff --script=keys --size=100x10 base.callgrind new.callgrind
	sed -n '4,7p' d >"$OUT"
	expect_out <<'EOF2'
          Base            New         Change     %base    Ratio        Function
             1    123,456,789   +123,456,788 +6169755%  1.2e+08        tiny
         1,000     18,209,949    +18,208,949  +909992% 18209.95        grow
         1,000          1,000              0    +0.00%    1.000        main
EOF2
}

# Two builds of one checkout in two directories: test/fixtures/src/dprog.c copied to
# /tmp/ncgrind-fixture/a/dprog.c and /tmp/ncgrind-fixture/b/dprog.c, built there
# with gcc -g -O1 (b with -DSTEPS=3: cmpu three times the work, the same text), run
# under valgrind 3.19 in each directory:
#   valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=a.cachegrind ./dprog
#   valgrind --tool=callgrind --callgrind-out-file=a.callgrind ./dprog
# (b alike). The expected numbers are Valgrind's own:
#   cg_diff --mod-filename='s/\/a\//\/b\//' a.cachegrind b.cachegrind >d.out
#   cg_annotate --threshold=0 d.out: PROGRAM TOTALS 128,001, b/dprog.c:cmpu 128,001,
#     every other function 0 (fill, main, walk of b/dprog.c among them)
#   cg_annotate a.cachegrind: cmpu 64,005, fill 12,004, walk 2,640, main 69
#   cg_annotate b.cachegrind: cmpu 192,006, the others as in a
#   callgrind_annotate --auto=yes a.callgrind (b.callgrind): cmpu's lines 23, 24, 25:
#     12,003, 52,001, 1 (36,004, 156,001, 1); walk'2 2,510 and walk 130 in both
DD="$BATS_TEST_DIRNAME/fixtures/diffdirs"

@test "diff: two builds in two directories: every function matched without a rule, the changes of cg_diff --mod-filename" {
	ncg --diff --format=tsv "$DD/a.cachegrind" "$DD/b.cachegrind"
	expect_status 0
	expect_no_err
	# nothing gone or new; dprog.c's four functions matched across directories
	awk -F'\t' 'NR > 1 && $4 != "matched" && $4 != "matched-dir"' "$OUT" >"$BATS_TEST_TMPDIR/odd"
	[ ! -s "$BATS_TEST_TMPDIR/odd" ]
	awk -F'\t' '$2 ~ /dprog.c$/ { print $1, $2, $4, $5, $6, $7 }' "$OUT" | LC_ALL=C sort \
		>"$BATS_TEST_TMPDIR/prog"
	cat >"$BATS_TEST_TMPDIR/want" <<'EOF2'
cmpu /tmp/ncgrind-fixture/b/dprog.c matched-dir 64005 192006 +128001
fill /tmp/ncgrind-fixture/b/dprog.c matched-dir 12004 12004 0
main /tmp/ncgrind-fixture/b/dprog.c matched-dir 69 69 0
walk /tmp/ncgrind-fixture/b/dprog.c matched-dir 2640 2640 0
EOF2
	diff -u "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/prog"
	# every other function unchanged, as cg_diff's 0
	awk -F'\t' 'NR > 1 && $1 != "cmpu" && $7 != "0"' "$OUT" >"$BATS_TEST_TMPDIR/moved"
	[ ! -s "$BATS_TEST_TMPDIR/moved" ]
	ncg --diff "$DD/a.cachegrind" "$DD/b.cachegrind"
	assert_grep 'Event Ir: base total 207,158, new total 335,159, change +128,001' "$OUT"
	assert_grep 'Functions: 336 matched (4 across directories), 0 only in the base (gone, self 0), 0 only in the new (new, self 0)' "$OUT"
	refute_grep 'mod-filename' "$OUT"
	# the same as the rule cg_diff needs gives
	ncg --diff --mod-filename='s/\/a\//\/b\//' "$DD/a.cachegrind" "$DD/b.cachegrind"
	assert_grep 'Functions: 336 matched, 0 only in the base (gone, self 0), 0 only in the new (new, self 0)' "$OUT"
	# callgrind: walk'2 too, and the calls between them matched (main -> cmpu: three times
	# the cost)
	ncg --diff --dump=calls --format=tsv "$DD/a.callgrind" "$DD/b.callgrind"
	expect_status 0
	awk -F'\t' '$3 == "cmpu"' "$OUT" | cut -f1,3,5-11 >"$BATS_TEST_TMPDIR/top"
	printf 'main\tcmpu\tmatched\t1\t1\t0\t64005\t192006\t+128001\n' | diff -u - "$BATS_TEST_TMPDIR/top"
	ncg --diff "$DD/a.callgrind" "$DD/b.callgrind"
	assert_grep "Functions: 245 matched (5 across directories)" "$OUT"
	grep -E ":(walk'2|walk)\$" "$OUT" | awk '{ print $1, $2, $3, $NF }' >"$BATS_TEST_TMPDIR/walk"
	printf '%s\n' '130 130 0 /tmp/ncgrind-fixture/b/dprog.c:walk' \
		"2,510 2,510 0 /tmp/ncgrind-fixture/b/dprog.c:walk'2" | diff -u - "$BATS_TEST_TMPDIR/walk"
}

@test "diff: --strict-files: two directories' files differ, as cg_diff without a rule; the hint names --mod-filename" {
	# cg_diff a.cachegrind b.cachegrind (no rule): -64,005 a/dprog.c:cmpu,
	# +192,006 b/dprog.c:cmpu, -+12,004 fill, -+2,640 walk, -+69 main
	ncg --diff --strict-files --format=tsv "$DD/a.cachegrind" "$DD/b.cachegrind"
	expect_status 0
	awk -F'\t' '$2 ~ /dprog.c$/ { print $1, $2, $4, $7 }' "$OUT" | LC_ALL=C sort >"$BATS_TEST_TMPDIR/prog"
	cat >"$BATS_TEST_TMPDIR/want" <<'EOF2'
cmpu /tmp/ncgrind-fixture/a/dprog.c gone -64005
cmpu /tmp/ncgrind-fixture/b/dprog.c new +192006
fill /tmp/ncgrind-fixture/a/dprog.c gone -12004
fill /tmp/ncgrind-fixture/b/dprog.c new +12004
main /tmp/ncgrind-fixture/a/dprog.c gone -69
main /tmp/ncgrind-fixture/b/dprog.c new +69
walk /tmp/ncgrind-fixture/a/dprog.c gone -2640
walk /tmp/ncgrind-fixture/b/dprog.c new +2640
EOF2
	diff -u "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/prog"
	ncg --diff --strict-files "$DD/a.cachegrind" "$DD/b.cachegrind"
	# gone: 64,005 + 12,004 + 2,640 + 69 = 78,718; new: 192,006 + 12,004 + 2,640 + 69 = 206,719
	assert_grep 'Functions: 332 matched, 4 only in the base (gone, self 78,718), 4 only in the new (new, self 206,719)' "$OUT"
	assert_grep 'Of them 4 gone and 4 new are named in another file of the other side: --mod-filename=s/FROM/TO/ matches them' "$OUT"
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	ncg --diff --strict-files --format=json "$DD/a.cachegrind" "$DD/b.cachegrind"
	python3 - "$OUT" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
assert (d["matched"], d["matched_dir"], d["only_base"], d["only_new"]) == (332, 0, 4, 4), d
assert d["elsewhere"] == {"gone": 4, "new": 4}
c = [f for f in d["functions"] if f["name"] == "cmpu" and f["status"] == "gone"][0]
assert c["elsewhere"] == "/tmp/ncgrind-fixture/b/dprog.c", c
EOF2
}

@test "diff: json of every diff report; tsv of the source and the other reports refused (exit 2)" {
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	local t=$BATS_TEST_TMPDIR k
	mkdir -p "$t/a" "$t/b"
	cp "$FIX/src/dprog.c" "$t/a/dprog.c"
	cp "$FIX/src/dprog.c" "$t/b/dprog.c"
	for k in functions calls tree lines source; do
		ncg --diff --dump=$k --function='^cmpu$' --format=json \
			--substitute-path="/tmp/ncgrind-fixture=$t" "$DD/a.callgrind" "$DD/b.callgrind"
		expect_status 0
		cp "$OUT" "$t/$k.json"
	done
	python3 - "$t" <<'EOF2'
import json, sys
t = sys.argv[1]
r = {k: json.load(open(f"{t}/{k}.json")) for k in ("functions", "calls", "tree", "lines", "source")}
f = r["functions"]
assert (f["matched"], f["matched_dir"]) == (245, 5), f["matched"]
cmpu = [x for x in f["functions"] if x["name"] == "cmpu"][0]
assert cmpu["status"] == "matched-dir" and cmpu["base_file"] == "/tmp/ncgrind-fixture/a/dprog.c"
assert cmpu["self"]["Ir"]["change"] == 128001 and cmpu["self"]["Ir"]["ratio"] == 3.0
c = [x for x in r["calls"]["calls"] if x["callee"] == "cmpu"]
assert [(x["caller"], x["cost"]["Ir"]["change"]) for x in c] == [("main", 128001)], c
tr = r["tree"]["trees"][0]
assert tr["function"] == "cmpu" and tr["Ir"]["base"] == 64005 and tr["Ir"]["new"] == 192006, tr
# the lines of a/dprog.c are set against b/dprog.c's: the base's functions matched across
ls = {(x["file"], x["line"]): x["self"]["Ir"] for x in r["lines"]["lines"]}
assert not any("/a/dprog.c" in k[0] for k in ls), "a/dprog.c has lines of its own"
b = "/tmp/ncgrind-fixture/b/dprog.c"
assert [(ls[(b, n)]["base"], ls[(b, n)]["new"]) for n in (23, 24, 25)] == \
    [(12003, 36004), (52001, 156001), (1, 1)], ls[(b, 23)]
s = r["source"]["functions"]
assert len(s) == 1 and s[0]["name"] == "cmpu" and len(s[0]["files"]) == 1
fl = s[0]["files"][0]
assert fl["file"] == b and fl["found"] and not fl["differ"]
assert [(x["line"], x["base"], x["new"], x["change"]) for x in fl["lines"]] == \
    [(23, 12003, 36004, 24001), (24, 52001, 156001, 104000), (25, 1, 1, 0)], fl["lines"]
assert fl["lines"][1]["text"] == "\t\tsink += i % 7;", fl["lines"][1]
EOF2
	# the source not found: the paths tried, in json and in text (x.c of two
	# directories that are nowhere: matched all the same, 5 -> 7)
	cd "$t"
	printf '%s\n' 'events: Ir' 'fl=/nowhere-ncgrind/a/x.c' 'fn=f' '3 5' >a.cg
	printf '%s\n' 'events: Ir' 'fl=/nowhere-ncgrind/b/x.c' 'fn=f' '3 7' >b.cg
	ncg --diff --dump=source --function='^f$' --format=json a.cg b.cg
	expect_status 0
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); f = d["functions"][0]
assert f["status"] == "matched-dir" and d["matched_dir"] == 1, d
x = f["files"][0]
assert x["file"] == "/nowhere-ncgrind/b/x.c" and not x["found"] and x["tried"][0] == x["file"], x
assert x["lines"] == [{"line": 3, "base": 5, "new": 7, "change": 2, "text": None}], x' "$OUT"
	ncg --diff --dump=source --function='^f$' a.cg b.cg
	assert_grep '--   tried /nowhere-ncgrind/b/x.c' "$OUT"
	cd - >/dev/null
	ncg --diff --dump=source --function='^cmpu$' --format=tsv "$DD/a.callgrind" "$DD/b.callgrind"
	expect_status 2
	assert_grep 'source of a diff is text or json' "$ERR"
	for k in folded callers callees; do
		ncg --diff --dump=$k --function=main --format=json "$DD/a.callgrind" "$DD/b.callgrind"
		expect_status 2
		[ ! -s "$OUT" ]
	done
}

@test "diff browser: the file of each function at the right on a wide screen, under the list its files on both sides" {
	# dprog.c of a/ and b/ (see above): cmpu first (+128,001); the callgrind files have
	# two (below main): one in ??? of dprog, one in libc_start_call_main.h of libc
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' ':save-screen w0' ':goto ^.below main.$' ':save-screen w1' >keys
	"$NCGRIND" --diff --script=keys --size=200x14 "$DD/a.callgrind" "$DD/b.callgrind"
	assert_grep '245 matched (5 across directories), 1 gone (self 3), 1 new (self 3)' w0
	sed -n 4p w0 | grep -q 'Function  *File *$'
	sed -n 5p w0 | grep -q '  cmpu  *  /tmp/ncgrind-fixture/b/dprog.c *$'
	# the two lines under the list: the whole name, the files base -> new
	sed -n '12,13p' w0 >"$OUT"
	expect_out <<'EOF2'
cmpu
file: /tmp/ncgrind-fixture/a/dprog.c -> /tmp/ncgrind-fixture/b/dprog.c  object: /tmp/ncgrind-fixture/a/dprog -> /tmp/ncgrind-fixture/b/dprog  (matched across directories)
EOF2
	# the two (below main) read apart by their files
	grep '^ .*(below main)' w1 | sed 's/  */ /g' >"$OUT"
	expect_out <<'EOF2'
 11 11 0 +0.00% 1.000 (below main) ???
 25 25 0 +0.00% 1.000 (below main) ./csu/../sysdeps/nptl/libc_start_call_main.h
EOF2
	# narrow: no file column, the names tell them apart (the file's base name)
	"$NCGRIND" --diff --script=keys --size=80x14 "$DD/a.callgrind" "$DD/b.callgrind"
	refute_grep 'File' w0
	grep -c '(below main) (' w1 | grep -qx 2
	# two objects' f in ??? on each side: the object's base name tells them apart
	printf '%s\n' 'events: Ir' 'ob=/x/liba.so' 'fl=???' 'fn=f' '1 5' 'ob=/x/libb.so' 'fl=???' 'fn=f' '1 3' >o1.cg
	printf '%s\n' 'events: Ir' 'ob=/x/liba.so' 'fl=???' 'fn=f' '1 6' 'ob=/x/libb.so' 'fl=???' 'fn=f' '1 3' >o2.cg
	printf '%s\n' ':save-screen o' >keys
	"$NCGRIND" --diff --script=keys --size=80x12 o1.cg o2.cg
	sed -n '5,6p' o | sed 's/  */ /g' >"$OUT"
	expect_out <<'EOF2'
 5 6 +1 +12.50% 1.200 f (liba.so)
 3 3 0 +0.00% 1.000 f (libb.so)
EOF2
	# --strict-files: the row of a function gone says where the new profile has it
	printf '%s\n' ':goto ^cmpu$' ':save-screen s0' 'j' ':save-screen s1' >keys
	"$NCGRIND" --diff --strict-files --script=keys --size=120x14 "$DD/a.callgrind" "$DD/b.callgrind"
	assert_grep '240 matched, 6 gone (self 78,726), 6 new (self 206,727); 10 in other files (--mod-filename)' s0
	assert_grep 'new: the base has it in /tmp/ncgrind-fixture/a/dprog.c (--mod-filename matches them)' s0
	assert_grep 'gone: the new profile has it in /tmp/ncgrind-fixture/b/dprog.c (--mod-filename matches them)' s1
}

@test "diff browser: :goto searches the diff's functions; v there opens the diff's source, < and > scroll it" {
	local t=$BATS_TEST_TMPDIR
	mkdir -p "$t/a" "$t/b"
	cp "$FIX/src/dprog.c" "$t/a/dprog.c"
	cp "$FIX/src/dprog.c" "$t/b/dprog.c"
	cd "$t"
	# from the calls of cmpu, :goto goes back to the diff's list, not the new profile's table
	printf '%s\n' 'Enter' ':goto ^fill$' ':save-screen g0' 'v' ':save-screen g1' '>' \
		':save-screen g2' '<' ':save-screen g3' >keys
	"$NCGRIND" --diff --substitute-path="/tmp/ncgrind-fixture=$t" --script=keys --size=100x14 \
		"$DD/a.callgrind" "$DD/b.callgrind"
	assert_grep 'ncgrind: diff ' g0
	grep -q '^[0-9]*/247 ' g0
	assert_grep '12,004         12,004              0    +0.00%    1.000        fill' g0
	# fill's loop: lines 29 and 30 (6,003 and 6,000 on each side, from callgrind_annotate)
	assert_grep 'ncgrind: diff, annotated source of fill' g1
	grep -Eq '^ +6,000 +6,000 +0 +30 +sink \^= i;$' g1
	# >: half the screen (50 columns) of each line scrolled off; <: back
	grep -q '      30 *$' g2
	grep -Eq '^ +6,000 +6,000 +0 +30 +sink \^= i;$' g3
}

# Filters on a diff: each side filtered as one profile, a row kept where a side
# that has it keeps it. The expected values are read off the fixtures: work_a
# (fn 538) costs 3+12+3+219989+59997+1 = 280,005 in both; work_b (fn 540) lines
# 19-21 cost 30,003, 120,001 and 1 in version1 (150,005), and line 17 1, then
# 90,003, 360,001 and 1 in version2 (450,006); main calls each once. The diff
# has 249 functions (245 matched, 2 gone, 2 new).
@test "diff filters: functions: filter keeps work_a and work_b, the head names the filter and counts the rows kept" {
	ncg --diff --command='filter work' "$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 0
	assert_grep 'Functions: 2 matched (2 across directories), 0 only in the base (gone, self 0), 0 only in the new (new, self 0)' "$OUT"
	assert_grep 'Filters:     filter work (2 of 249 functions kept)' "$OUT"
	sed -n '/Function (self cost)/,$p' "$OUT" | sed 1d | awk '{ print $1, $2, $3, $NF }' >"$BATS_TEST_TMPDIR/rows"
	cat >"$BATS_TEST_TMPDIR/want" <<'EOF2'
150,005 450,006 +300,001 /tmp/me/diffrun/version2/prog.c:work_b
280,005 280,005 0 /tmp/me/diffrun/version2/prog.c:work_a
EOF2
	diff -u "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/rows"
	# json: the counts of the rows kept, and the filters
	command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
	ncg --diff --format=json --command='filter work' "$D/version1.callgrind" "$D/version2.callgrind"
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert (d["filters"], d["functions_kept"], d["functions_all"]) == ("filter work", 2, 249), d
assert sorted(f["name"] for f in d["functions"]) == ["work_a", "work_b"]' "$OUT"
	ncg --diff --format=json "$D/version1.callgrind" "$D/version2.callgrind"
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["filters"] is None' "$OUT"
}

@test "diff filters: a row stays where either side keeps it: focus old_helper keeps main though the new side has no old_helper" {
	# version1: old_helper is called by main <- (below main) <- __libc_start_main <-
	# (below main) of prog <- 0x1ab70 of ld.so; version2 has no old_helper, so its
	# side keeps nothing: the rows are the base's six, five of them matched
	ncg --diff --format=tsv --command='focus old_helper' "$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 0
	awk -F'\t' 'NR > 1 { print $1 "\t" $4 }' "$OUT" | sort >"$BATS_TEST_TMPDIR/rows"
	cat >"$BATS_TEST_TMPDIR/want" <<'EOF2'
(below main)	matched
(below main)	matched
0x000000000001ab70	matched
__libc_start_main@@GLIBC_2.34	matched
main	matched-dir
old_helper	gone
EOF2
	diff -u "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/rows"
	# main's self cost: 1+2+2+1+4+5+3 = 18 on both sides
	awk -F'\t' '$1 == "main" { print $5, $6 }' "$OUT" | diff -u <(echo "18 18") -
}

@test "diff filters: calls between the functions kept only; lines of the functions kept only" {
	ncg --diff --dump=calls --command='filter ^(main|work_.)$' "$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 0
	assert_grep 'Filters:     filter ^(main|work_.)$ (3 of 249 functions kept)' "$OUT"
	sed -n '/Caller -> callee/,$p' "$OUT" | sed 1d | awk '{ $4 = $5 = ""; print }' >"$BATS_TEST_TMPDIR/rows"
	cat >"$BATS_TEST_TMPDIR/want" <<'EOF2'
150,005 450,006 +300,001   main -> work_b (1 -> 1)
280,005 280,005 0   main -> work_a (1 -> 1)
EOF2
	diff -u "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/rows"
	ncg --diff --dump=lines --command='filter work_b' "$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 0
	cut -f1-4 "$OUT" >"$BATS_TEST_TMPDIR/lines"
	cat >"$BATS_TEST_TMPDIR/want" <<'EOF2'
file	line	self:Ir:base	self:Ir:new
/tmp/me/diffrun/version2/prog.c	17	0	1
/tmp/me/diffrun/version2/prog.c	19	30003	90003
/tmp/me/diffrun/version2/prog.c	20	120001	360001
/tmp/me/diffrun/version2/prog.c	21	1	1
EOF2
	diff -u "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/lines"
}

@test "diff filters: source of the functions kept only; trees of the functions kept; hide refused" {
	ncg --diff --dump=source --function=work --command='filter work_b' "$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 0
	assert_grep 'Filters:     filter work_b (1 of 249 functions kept)' "$OUT"
	grep '^-- function' "$OUT" | diff -u <(echo '-- function work_b') -
	# filter work: neither entry point is kept; work_a and work_b, whom nothing
	# kept calls, are the roots, at their inclusive costs
	ncg --diff --dump=tree --command='filter work' "$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 0
	assert_grep 'Filters:     filter work (2 of 249 functions kept)' "$OUT"
	sed -n '/Function, then its callees/,$p' "$OUT" | sed 1d | awk '{ print $1, $2, $3, $NF }' >"$BATS_TEST_TMPDIR/rows"
	cat >"$BATS_TEST_TMPDIR/want" <<'EOF2'
150,005 450,006 +300,001 work_b
280,005 280,005 0 work_a
EOF2
	diff -u "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/rows"
	# focus old_helper: the path from the entry point down to main, then old_helper alone
	ncg --diff --dump=tree --format=tsv --command='focus old_helper' "$D/version1.callgrind" "$D/version2.callgrind"
	awk -F'\t' 'NR > 1 { print $1, $2, $4 }' "$OUT" >"$BATS_TEST_TMPDIR/rows"
	cat >"$BATS_TEST_TMPDIR/want" <<'EOF2'
0 0x000000000001ab70 
1 (below main) 
2 __libc_start_main@@GLIBC_2.34 
3 (below main) 
4 main 
5 old_helper gone
EOF2
	diff -u "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/rows"
	ncg --diff --dump=tree --command='hide main' "$D/version1.callgrind" "$D/version2.callgrind"
	expect_status 2
	assert_grep 'hide shapes the call trees of one profile; --diff takes filter, focus and ignore' "$ERR"
	[ ! -s "$OUT" ]
}

@test "diff browser: :filter narrows the diff screens, their titles name it; u undoes it, the cursor on its function" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' ':filter work' ':save-screen f1' 'j' 'T' ':save-screen f2' 'q' 'u' ':save-screen f3' \
		':hide main' ':save-screen f4' >keys
	"$NCGRIND" --diff --mod-filename="$RULE" --script=keys --size=100x14 \
		"$D/version1.callgrind" "$D/version2.callgrind"
	assert_grep '  [filter work: 2 of 249 functions]' f1
	sed -n '3,6p' f1 >"$OUT"
	expect_out <<'EOF'
2 matched, 0 gone (self 0), 0 new (self 0); self, biggest change first
          Base            New         Change     %base    Ratio        Function
       150,005        450,006       +300,001   +52.74%    3.000        work_b
       280,005        280,005              0    +0.00%    1.000        work_a
EOF
	assert_grep '1/2 ' f1
	# T: the tree of what the filter keeps, work_a and work_b its roots
	assert_grep 'ncgrind: diff, call tree from the entry points, threshold 1%  [filter work: 2 of 249 functions]' f2
	assert_grep '2 roots of both profiles' f2
	# u: all 249 again, the cursor still on work_a (no change: below the changes)
	refute_grep 'filter work' f3
	assert_grep '245 matched, 2 gone (self 12,005), 2 new (self 6,005)' f3
	sed -n '12p' f3 | diff -u <(echo work_a) -
	run grep -c '^[0-9]*/249  *filter undone$' f3
	[ "$output" = 1 ]
	refute_grep '^1/249' f3
	# hide: refused on a diff, as its reports refuse it
	assert_grep 'hide shapes the call trees of one profile; a diff takes filter, focus and ignore' f4
}

@test "diff tree: the budget holds for the whole report, not for each tree" {
	# every row's tree at 0%: R rows, every node the report made. Given R nodes,
	# the same report; R - 1, cut, and its last row says so in each format (it was
	# 1,000,000 nodes a tree, as the tree of one profile was)
	local d="$FIX/diff" r
	ncg --diff --dump=tree --function=. --threshold=0 --format=tsv "$d/version1.callgrind" "$d/version2.callgrind"
	expect_status 0
	cp "$OUT" "$OUT.all"
	r=$(($(wc -l <"$OUT.all") - 1))
	[ "$r" -gt 200 ]
	refute_grep 'cut' "$OUT.all"
	NCGRIND_TREE_NODES=$r ncg --diff --dump=tree --function=. --threshold=0 --format=tsv \
		"$d/version1.callgrind" "$d/version2.callgrind"
	diff -u "$OUT.all" "$OUT"
	NCGRIND_TREE_NODES=$((r - 1)) ncg --diff --dump=tree --function=. --threshold=0 --format=tsv \
		"$d/version1.callgrind" "$d/version2.callgrind"
	expect_status 0
	tail -1 "$OUT" | grep -q "^0	(report cut at $((r - 1)) nodes)	.*	cut\$"
	[ "$(tail -n +2 "$OUT" | grep -vc '(report cut')" -le "$r" ]
	NCGRIND_TREE_NODES=30 ncg --diff --dump=tree --function=. --threshold=0 \
		"$d/version1.callgrind" "$d/version2.callgrind"
	tail -1 "$OUT" | grep -q '^ *(report cut at 30 nodes)$'
	NCGRIND_TREE_NODES=30 ncg --diff --dump=tree --function=. --threshold=0 --format=json \
		"$d/version1.callgrind" "$d/version2.callgrind"
	expect_status 0
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["cut_at"] == 30, d["cut_at"]' "$OUT"
	ncg --diff --dump=tree --format=json "$d/version1.callgrind" "$d/version2.callgrind"
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["cut_at"] is None, d["cut_at"]' "$OUT"
}
