#!/usr/bin/env bats
# Fold rows open, and a tree built again keeps its place (issue 26), in
# script mode; the table keeps its cursor too. many-callers.callgrind, by hand: leaf (self 10,000 Ir, 1,000
# Dr) is called by big1 (6,000 Ir, 100 Dr), big2 (2,065 Ir, 600 Dr) and
# s01..s30 (s_i: 80 - i Ir, 79 down to 50; 10 Dr each), which main calls
# once each. Totals 10,000 Ir, 1,000 Dr. leaf spends its inclusive cost, so
# its callers cost their calls' costs: at 1% (100 Ir) the thirty s_i, 1,935
# Ir together (19.35%), are folded.

load test_helper

M="$BATS_TEST_DIRNAME/fixtures/browser/many-callers.callgrind"

browse() {
	sed "s|^:save-screen |:save-screen $BATS_TEST_TMPDIR/|;s|^:write |:write $BATS_TEST_TMPDIR/|" \
		>"$BATS_TEST_TMPDIR/keys"
	(cd "$(dirname "$1")" && "$NCGRIND" --script="$BATS_TEST_TMPDIR/keys" "$(basename "$1")" \
		>"$OUT" 2>"$ERR")
}

# s_rows FIRST LAST DEPTH: the rows of s_FIRST..s_LAST as the callers of leaf
# (DEPTH 1) or as children of main (2): 80 - i Ir, (80 - i) / 100 percent
s_rows() {
	local i
	for ((i = $1; i <= $2; i++)); do
		printf '%6s   0.%02d%%   0.%02d%%         1    + s%02d\n' $((80 - i)) $((80 - i)) $((80 - i)) "$i"
	done
}

@test "tree: Right on a fold row lists the folded callers by cost, a screenful then a fold; Enter: the rest" {
	# 19 rows to a screen: Right shows s01..s19 (19 rows, more than the 2 shown
	# beside the fold), then (11 more): s20..s30, 60 + ... + 50 = 605 (6.05%).
	# Enter on that fold: at least as many as shown beside it (21): the 11 left.
	browse "$M" <<'EOF2'
r
:save-screen folded
G Right
:save-screen screen
:write opened
G Enter
:write all
EOF2
	diff -u - <(sed -n '5,10p;24p' "$BATS_TEST_TMPDIR/folded") <<'EOF2'
10,000  100.0%  100.0%            - leaf
 6,000  60.00%  60.00%         1    - big1
 6,000  60.00%  100.0%         1        main
 2,065  20.65%  20.65%         1    + big2
 1,935  19.35%  19.35%                (30 more, 19.35%)

1/5  Right/Left: expand/collapse  e: hot path  r: callers
EOF2
	diff -u - <(tail -n +9 "$BATS_TEST_TMPDIR/opened") <<EOF2
$(s_rows 1 19)
   605   6.05%   6.05%                (11 more, 6.05%)
EOF2
	# the cursor stays on the row where the fold was: s01
	diff -u - <(sed -n '24p' "$BATS_TEST_TMPDIR/screen") <<<'5/24  Right/Left: expand/collapse  e: hot path  r: callers'
	diff -u - <(tail -n +9 "$BATS_TEST_TMPDIR/all") <<<"$(s_rows 1 30)"
}

@test "tree: a fold of 20,000 callers opens a batch at a time, each as big as what is shown" {
	# p0..p19999 call leaf, p_i for 20,000 - i: leaf spends 1 + ... + 20,000 =
	# 200,010,000, so each caller is under 1% and all are folded. Right: 19 rows (a
	# screenful); Right on the new fold: 19 more (as many as shown beside it), then
	# 38, then 76: 152 in all, p0..p151; the fold holds the 19,848 others,
	# 1 + ... + 19,848 = 196,981,476 (98.49%). p0 costs 20,000, p151 19,849 (0.01%);
	# nothing calls them (no +).
	awk 'BEGIN { print "# callgrind format"; print "events: Ir"; print "fl=c.c"
		for (i = 0; i < 20000; i++) printf "fn=p%d\ncfn=leaf\ncalls=1 2\n1 %d\n", i, 20000 - i
		print "fn=leaf"; print "2 200010000" }' >"$BATS_TEST_TMPDIR/callers.callgrind"
	browse "$BATS_TEST_TMPDIR/callers.callgrind" <<'EOF2'
r
:save-screen r0
G Right G Right G Right G Right
:write opened
EOF2
	[ "$(tail -n +5 "$BATS_TEST_TMPDIR/opened" | wc -l)" -eq 154 ]
	{
		sed -n '6p' "$BATS_TEST_TMPDIR/r0"
		sed -n '6p;157,158p' "$BATS_TEST_TMPDIR/opened"
	} >"$OUT"
	expect_out <<'EOF2'
200,010,000  100.0%  100.0%                (20000 more, 100.0%)
     20,000   0.01%   0.01%         1      p0
     19,849   0.01%   0.01%         1      p151
196,981,476  98.49%  98.49%                (19848 more, 98.49%)
EOF2
}

@test "tree: E shows a function's only child rather than a fold of one row" {
	# t on main: big1, big2, then the thirty s_i folded. Right on the fold: s01..s19;
	# E on s01: its only callee, leaf, costs 79 (0.79% of main's 10,000, under
	# 1%): shown as a row (before: "(1 more, 0.79%)"), 100% of s01.
	browse "$M" <<'EOF2'
:goto ^main$
t G Right E
:save-screen only
EOF2
	diff -u - <(sed -n '9,10p' "$BATS_TEST_TMPDIR/only") <<'EOF2'
    79   0.79%   0.79%         1    - s01
    79   0.79%  100.0%         1        leaf
EOF2
}

# the N/M of a saved screen's status line: where the cursor is
at() {
	sed -n '24p' "$BATS_TEST_TMPDIR/$1" | cut -d' ' -f1
}

@test "tree: ( ) Tab @ and filters build the tree again with the cursor on its function, the rows open" {
	# r on leaf, the fold opened, the cursor on s06 (row 10). ) at 2% (200 Ir):
	# s06 was shown, so the fold opens as far as it: s01..s06, then (24 more),
	# 1,935 - (79 + ... + 74 = 459) = 1,476 (14.76%); big1 stays open; row 10 of 11.
	# ( ( at 0.5% (50 Ir): every s_i (s30 is 50), row 10 of 34. Tab, Dr: big2
	# (600) before big1 (100, open: main), then s01..s30 (10 each, 1%, in the
	# file's order): s06 is row 10 still; @ (no cycle here): the same. hide big1:
	# main takes its place (through it), not open; s06 is row 9 of 33; u: big1
	# back (closed now), row 9. Enter: s06's callers and callees.
	browse "$M" <<'EOF2'
r G Right j j j j j
:save-screen before
)
:save-screen up
( (
:save-screen down
Tab
:save-screen dr
@
:save-screen cycles
:hide ^big1$
:save-screen hide
u
:save-screen undo
Enter
:save-screen detail
EOF2
	diff -u - <(sed -n '5,15p' "$BATS_TEST_TMPDIR/up") <<'EOF2'
10,000  100.0%  100.0%            - leaf
 6,000  60.00%  60.00%         1    - big1
 6,000  60.00%  100.0%         1        main
 2,065  20.65%  20.65%         1    + big2
    79   0.79%   0.79%         1    + s01
    78   0.78%   0.78%         1    + s02
    77   0.77%   0.77%         1    + s03
    76   0.76%   0.76%         1    + s04
    75   0.75%   0.75%         1    + s05
    74   0.74%   0.74%         1    + s06
 1,476  14.76%  14.76%                (24 more, 14.76%)
EOF2
	diff -u - <(sed -n '5,9p;14p' "$BATS_TEST_TMPDIR/dr") <<'EOF2'
1,000  100.0%  100.0%            - leaf
  600  60.00%  60.00%         1    + big2
  100  10.00%  10.00%         1    - big1
  100  10.00%  100.0%         1        main
   10   1.00%   1.00%         1    + s01
   10   1.00%   1.00%         1    + s06
EOF2
	diff -u - <(sed -n '5,8p;13p' "$BATS_TEST_TMPDIR/hide") <<'EOF2'
1,000  100.0%  100.0%            - leaf
  600  60.00%  60.00%         1    + big2
  100  10.00%  10.00%         1      main
   10   1.00%   1.00%         1    + s01
   10   1.00%   1.00%         1    + s06
EOF2
	sed -n '7p' "$BATS_TEST_TMPDIR/undo" >"$OUT"
	expect_out <<<'  100  10.00%  10.00%         1    + big1'
	for s in before up down dr cycles hide undo; do at $s; done >"$OUT"
	expect_out <<'EOF2'
10/24
10/11
10/34
10/34
10/34
9/33
9/33
EOF2
	diff -u - <(sed -n '2p' "$BATS_TEST_TMPDIR/detail") <<<'s06'
}

@test "tree: C then ) keeps everything closed; a cursor on a fold row stays on the fold" {
	# C closes all, the cursor on leaf: ) builds it again closed (1 row). Then
	# Right G: the fold row (at 2%, the same as at 1% here); ( at 1%: the fold
	# is made again, the cursor on it.
	browse "$M" <<'EOF2'
r C )
:save-screen closed
Right G (
:save-screen fold
EOF2
	diff -u - <(sed -n '5,6p' "$BATS_TEST_TMPDIR/closed") <<'EOF2'
10,000  100.0%  100.0%            + leaf

EOF2
	diff -u - <(sed -n '5,9p' "$BATS_TEST_TMPDIR/fold") <<'EOF2'
10,000  100.0%  100.0%            - leaf
 6,000  60.00%  60.00%         1    + big1
 2,065  20.65%  20.65%         1    + big2
 1,935  19.35%  19.35%                (30 more, 19.35%)

EOF2
	at closed >"$OUT"
	at fold >>"$OUT"
	expect_out <<'EOF2'
1/1
4/4
EOF2
}

@test "diff tree: Right on a fold row lists the folded callers by change; ) and Tab keep the cursor's function" {
	# the new side: each s_i's call costs 80 (+i), leaf 10,465 (+465). r on leaf:
	# 1% of the bigger side (10,465) folds every s_i (80 at most): (30 more), base
	# 1,935, new 30 x 80 = 2,400. Right: by change, s30 (+30, 0.30% of the base's
	# total) .. s14 (+14), a screenful (the two detail lines under it), then (13
	# more): s01..s13, base 79 + ... + 67 = 949, new 1,040, +91 (0.91%). j j j: s27; ) at 2%: s30..s27, then (26
	# more), s01..s26: base 79 + ... + 54 = 1,729, new 2,080, +351 (3.51%); row 8
	# of 9. Tab, Dr: no change, by the bigger cost then the file's order:
	# big2, big1 (open: main), s01..s27 (the fold opened as far as s27), (3 more):
	# row 31 of 32.
	local t=$BATS_TEST_TMPDIR
	cp "$M" "$t/base.callgrind"
	awk '/^fn=s[0-9][0-9]$/ { n = substr($0, 5) + 0 } prev ~ /^calls=/ && n { $2 = 80 }
		$0 == "2 10000 1000" { $0 = "2 10465 1000" } { prev = $0; print }' "$M" >"$t/new.callgrind"
	printf '%s\n' '/ "^leaf$" Enter r' ':save-screen d0' 'G Right' ':save-screen d1' ':write w1' \
		'j j j )' ':save-screen d2' 'Tab' ':save-screen d3' >"$t/keys"
	(cd "$t" && "$NCGRIND" --diff --script=keys --size=120x24 base.callgrind new.callgrind >"$OUT" 2>"$ERR")
	sed -n '9p' "$t/d0" | tr -s ' ' >"$OUT"
	tail -n +9 "$t/w1" | tr -s ' ' >>"$OUT" # (past the screen's four head lines and leaf, big1, main, big2)
	expect_out <<EOF2
 1,935 2,400 +465 +4.65% (30 more)
$(for ((i = 30; i >= 14; i--)); do printf ' %d 80 +%d +0.%02d%% 1 + s%02d\n' $((80 - i)) "$i" "$i" "$i"; done)
 949 1,040 +91 +0.91% (13 more)
EOF2
	sed -n '12,13p' "$t/d2" | tr -s ' ' >"$OUT"
	expect_out <<'EOF2'
 53 80 +27 +0.27% 1 + s27
 1,729 2,080 +351 +3.51% (26 more)
EOF2
	for s in d1 d2 d3; do at $s; done >"$OUT"
	# (d1: leaf, big1, main, big2, s30..s14, (13 more): the fold row is 5 of 22)
	expect_out <<'EOF2'
5/22
8/9
31/32
EOF2
}

@test "table: Tab, @, a filter and u keep the cursor on its function" {
	# sorted by self cost: leaf, then the others (0) by name: big1, big2, main,
	# s01..s30; s06 is row 10 of 34, in Ir as in Dr. :filter ^s keeps s01..s30.
	# The line under the table names the function under the cursor.
	browse "$M" <<'EOF2'
:goto ^s06$
Tab
:save-screen tab
@
:save-screen cycles
:filter ^s
:save-screen filter
u
:save-screen undo
EOF2
	for s in tab cycles filter undo; do sed -n '22p' "$BATS_TEST_TMPDIR/$s"; done >"$OUT"
	at tab >>"$OUT"
	at undo >>"$OUT"
	expect_out <<'EOF2'
s06
s06
s06
s06
10/34
10/34
EOF2
}
