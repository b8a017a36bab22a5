#!/usr/bin/env bats
# run-suite: first (it takes long: test/tools/run-suite)
# The browser's function screen, call trees and history, in script mode.
# spec-extended (spec 3.1.4), worked out by hand: main self 20 calls func1 1x
# (400) and func2 3x (400) at file1.c:16; func1 self 100 calls func2 2x (300) at
# file1.c:51; func2 self 700. incl main 820, func1 400, func2 700; total 820.
# The table is sorted by self cost: func2 (700), func1 (100), main (20).

load test_helper

X="$BATS_TEST_DIRNAME/fixtures/spec/spec-extended.callgrind"

# browse PROFILE: run the keys on standard input, from the profile's directory so
# that the title shows its base name; :save-screen NAME writes $BATS_TEST_TMPDIR/NAME.
browse() {
	sed "s|^:save-screen |:save-screen $BATS_TEST_TMPDIR/|" >"$BATS_TEST_TMPDIR/keys"
	(cd "$(dirname "$1")" && "$NCGRIND" --script="$BATS_TEST_TMPDIR/keys" "$(basename "$1")" \
		>"$OUT" 2>"$ERR")
}

@test "function screen: Enter shows the callers and callees, with the call sites" {
	# func2's callers: main 400 = 48.78% of 820, 57.14% of func2's 700, 3 calls at
	# line 16; func1 300 = 36.59%, 42.86%, 2 calls at line 51. No callees.
	browse "$X" <<'EOF2'
Enter
:save-screen func2
EOF2
	diff -u - <(head -8 "$BATS_TEST_TMPDIR/func2") <<'EOF2'
ncgrind: callers and callees
func2
Instructions incl 700 (85.37%)  self 700 (85.37%)  called 5 times
 Cost  %total   %func     Calls  Function  call site
Callers (2)
  400  48.78%  57.14%         3  main  file1.c:16
  300  36.59%  42.86%         2  func1  file1.c:51
Callees (0)
EOF2
}

@test "function screen: Enter on a caller opens it, Backspace and [ ] walk the history" {
	# func2 -> (j: func1 row) Enter -> func1: caller main 400 (100% of func1),
	# callee func2 300 (75.00% of 400) at line 51.
	browse "$X" <<'EOF2'
Enter j Enter
:save-screen func1
Backspace
:save-screen back
]
:save-screen forward
[ [
:save-screen table
EOF2
	diff -u - <(sed -n '2p;5,8p' "$BATS_TEST_TMPDIR/func1") <<'EOF2'
func1
Callers (1)
  400  48.78%  100.0%         1  main  file1.c:16
Callees (1)
  300  36.59%  75.00%         2  func2  file1.c:51
EOF2
	# back on func2's screen with the cursor where it was (on func1)
	diff -u - <(sed -n '2p;7p' "$BATS_TEST_TMPDIR/back") <<'EOF2'
func2
  300  36.59%  42.86%         2  func1  file1.c:51
EOF2
	diff -u - <(sed -n '2p' "$BATS_TEST_TMPDIR/forward") <<<'func1'
	diff -u - <(sed -n '1p;24p' "$BATS_TEST_TMPDIR/table") <<'EOF2'
ncgrind: spec-extended.callgrind
1/3  sort: self Instructions   ? help  q quit
EOF2
}

@test "call tree: t opens the callees with the hot path expanded; scaled costs" {
	# G: main (the last row by self cost). Hot path: main -> func1 (400, first of the
	# two 400s: file order) -> func2 (300 * 400/400 = 300, 75.00% of its parent).
	browse "$X" <<'EOF2'
G t
:save-screen tree
EOF2
	diff -u - <(sed -n '1,8p' "$BATS_TEST_TMPDIR/tree") <<'EOF2'
ncgrind: call tree, threshold 1%
main
Instructions incl 820 (100.0%)  self 20 (2.44%)  called 0 times
 Incl   %root %parent     Calls  Function, then its callees
  820  100.0%  100.0%            - main
  400  48.78%  48.78%         1    - func1
  300  36.59%  75.00%         2        func2
  400  48.78%  48.78%         3      func2
EOF2
}

@test "call tree: collapse, go to the parent, collapse all, expand all, Enter" {
	browse "$X" <<'EOF2'
G t j Left
:save-screen collapsed
Left
:save-screen parent
C
:save-screen all-closed
E
:save-screen all-open
Enter
:save-screen detail
EOF2
	diff -u - <(sed -n '5,8p;24p' "$BATS_TEST_TMPDIR/collapsed") <<'EOF2'
  820  100.0%  100.0%            - main
  400  48.78%  48.78%         1    + func1
  400  48.78%  48.78%         3      func2

2/3  Right/Left: expand/collapse  e: hot path  r: callers
EOF2
	diff -u - <(sed -n '24p' "$BATS_TEST_TMPDIR/parent") <<<'1/3  Right/Left: expand/collapse  e: hot path  r: callers'
	diff -u - <(sed -n '5,6p;24p' "$BATS_TEST_TMPDIR/all-closed") <<'EOF2'
  820  100.0%  100.0%            + main

1/1  Right/Left: expand/collapse  e: hot path  r: callers
EOF2
	diff -u - <(sed -n '5,8p' "$BATS_TEST_TMPDIR/all-open") <<'EOF2'
  820  100.0%  100.0%            - main
  400  48.78%  48.78%         1    - func1
  300  36.59%  75.00%         2        func2
  400  48.78%  48.78%         3      func2
EOF2
	diff -u - <(sed -n '1,2p' "$BATS_TEST_TMPDIR/detail") <<'EOF2'
ncgrind: callers and callees
main
EOF2
}

@test "call tree: r shows the callers upward; T starts at the entry points" {
	# func2's callers: main 400 (57.14%), func1 300; above func1: main, whose call
	# to func1 costs 400, scaled by 300/400 = 300 (100% of its parent).
	browse "$X" <<'EOF2'
r
:save-screen up
j j l
:save-screen up-open
T
:save-screen top
EOF2
	# the hot path is func2 -> main, which nothing calls: func1 stays closed (+)
	diff -u - <(sed -n '1,8p' "$BATS_TEST_TMPDIR/up") <<'EOF2'
ncgrind: callers, upward, threshold 1%
func2
Instructions incl 700 (85.37%)  self 700 (85.37%)  called 5 times
 Incl   %root %parent     Calls  Function, then its callers
  700  100.0%  100.0%            - func2
  400  57.14%  57.14%         3      main
  300  42.86%  42.86%         2    + func1

EOF2
	diff -u - <(sed -n '7,8p' "$BATS_TEST_TMPDIR/up-open") <<'EOF2'
  300  42.86%  42.86%         2    - func1
  300  42.86%  100.0%         1        main
EOF2
	diff -u - <(sed -n '1,5p' "$BATS_TEST_TMPDIR/top") <<'EOF2'
ncgrind: call tree from the entry points, threshold 1%
1 entry point: what no call from outside covers (main, threads)
Instructions total 820
 Incl   %root %parent     Calls  Function, then its callees
  820  100.0%  100.0%            - main
EOF2
}

@test "call tree: recursion is marked and not expanded; ( and ) change the threshold" {
	# example.callgrind: fib (self 20) -> fib'2 (2 calls, 350,232) -> fib'2 calls
	# itself 21,888 times for 4,107,968 Ir (the nested calls counted again).
	# Cycle detection on (the default): the call to itself is inside fib'2, which
	# is a leaf. Off (@): fib'2 -> fib'2 is marked @ and [recursive], not expanded,
	# and costs its share of what fib'2 spends: self 350,232 + calls 4,107,968 =
	# 4,458,200, so 350,232 * 4,107,968 / 4,458,200 = 322,718 (92.14% of both).
	# Costs take the width of the root's (350,252: 7 columns). @ builds the tree
	# again with the same rows open (fib) and the cursor on fib: fib'2 can be
	# opened now (+), and Right opens it; ( keeps the cursor on fib'2 (2/3).
	browse "$FIX/example.callgrind" <<'EOF2'
/ "^fib$" Enter t
:save-screen on
@
:save-screen off
j Right
:save-screen fib
(
:save-screen lower
EOF2
	diff -u - <(sed -n '5,7p' "$BATS_TEST_TMPDIR/on") <<'EOF2'
350,252  100.0%  100.0%            - fib
350,232  99.99%  99.99%         2      fib'2

EOF2
	diff -u - <(sed -n '5,7p;24p' "$BATS_TEST_TMPDIR/off") <<'EOF2'
350,252  100.0%  100.0%            - fib
350,232  99.99%  99.99%         2    + fib'2

1/2   cycle detection off: calls are followed one by one, recursion marked @
EOF2
	diff -u - <(sed -n '5,7p' "$BATS_TEST_TMPDIR/fib") <<'EOF2'
350,252  100.0%  100.0%            - fib
350,232  99.99%  99.99%         2    - fib'2
322,718  92.14%  92.14%    21,888      @ fib'2 [recursive]
EOF2
	diff -u - <(sed -n '1p;24p' "$BATS_TEST_TMPDIR/lower") <<'EOF2'
ncgrind: call tree, threshold 0.5%
2/3   threshold 0.5%: smaller branches are folded
EOF2
}

N="$BATS_TEST_DIRNAME/fixtures/browser/narrow.callgrind"

@test "narrow screens: at 40 columns trees and callers/callees keep the names; addresses keep their end" {
	# narrow.callgrind: total 500,900; main -> alpha -> beta -> gamma -> delta
	# (500,500 incl: self 500, 0x..f4a3b0 300,000 in 10 calls, 0x..f4a3c0 200,000
	# in 20). At 40 columns the percentages give way (7 + 8 + 8 + 10 + 2 leaves 5
	# for the name), numbers and calls stay (7 + 10 + 2 leaves 21); the tree
	# indents one column a level: a leaf at depth 5 has 2 + 5 + 2 blanks (the
	# gap, the indent, the mark and a blank) before its name, which has
	# 40 - 19 - 5 - 2 = 14
	# columns: the addresses' leading zeros give way to a "…" (0x…f4a3b0, 9
	# columns). Before, the number columns
	# took 35 and no name was shown at all.
	browse "$N" <<'EOF2'
:resize 40x16
:goto ^main$
t
:save-screen tree
:goto ^delta$
Enter
:save-screen detail
EOF2
	sed -n '4,11p' "$BATS_TEST_TMPDIR/tree" >"$OUT"
	expect_out <<'EOF2'
   Incl     Calls  Function, then its c…
500,900            - main
500,800         1   - alpha
500,700         1    - beta
500,600         2     - gamma
500,500         3      - delta
300,000        10         0x…f4a3b0
200,000        20         0x…f4a3c0
EOF2
	sed -n '4,9p' "$BATS_TEST_TMPDIR/detail" >"$OUT"
	expect_out <<'EOF2'
   Cost     Calls  Function
Callers (1)
500,500         3  gamma
Callees (2)
300,000        10  0x0000000000f4a3b0
200,000        20  0x0000000000f4a3c0
EOF2
}

@test ":write on a tree and on callers/callees writes all of it, not the rows on the screen" {
	# example.callgrind at 80x10: 5 rows in view. main's callers and callees are
	# 10 rows (Callers (1), (below main), Callees (7), 7 callees); E on main's
	# tree expands what the batch tree report shows (its rows, in its order). Before,
	# :write saved the 10 lines of the screen.
	local E="$BATS_TEST_DIRNAME/fixtures/example.callgrind"
	browse "$E" <<EOF2
:resize 80x10
:goto ^main\$
Enter
:write $BATS_TEST_TMPDIR/detail.txt
Backspace t E
:write $BATS_TEST_TMPDIR/tree.txt
EOF2
	[ "$(wc -l <"$BATS_TEST_TMPDIR/detail.txt")" -eq 14 ]
	sed -n '1p;5,6p;14p' "$BATS_TEST_TMPDIR/detail.txt" >"$OUT"
	expect_out <<'EOF2'
ncgrind: callers and callees
Callers (1)
13,017,326  99.04%  100.0%         1  (below main)  libc_start_call_main.h:58
       617   0.00%   0.00%         1  _dl_runtime_resolve_xsave  recur.c:101
EOF2
	# the tree: the same rows as --dump=tree (incl costs in order), after 4 head lines
	"$NCGRIND" --dump=tree --root='^main$' "$E" | tail -n +3 | awk '{ print $1 }' >"$BATS_TEST_TMPDIR/want"
	tail -n +5 "$BATS_TEST_TMPDIR/tree.txt" | awk '{ print $1 }' >"$OUT"
	[ "$(wc -l <"$OUT")" -gt 20 ]
	diff -u "$BATS_TEST_TMPDIR/want" "$OUT"
	sed -n '4p' "$BATS_TEST_TMPDIR/tree.txt" >"$OUT"
	expect_out <<'EOF2'
      Incl   %root %parent     Calls  Function, then its callees
EOF2
}

@test "cachegrind: no Incl or Calls column, no 'called 0 times'; callers and trees say the file has no calls" {
	# small.cachegrind (a Cachegrind file: no calls= lines, no version:): self Ir
	# count 1,000 + 2,000 = 3,000 (71.43% of 4,200), strlen 700 (16.67%), main 500
	# (11.90%). Before: an Incl column equal to Self, a Calls column of zeros and
	# "called 0 times".
	browse "$BATS_TEST_DIRNAME/fixtures/browser/small.cachegrind" <<'EOF2'
:save-screen table
Enter
:save-screen detail
Backspace t
:save-screen tree
T
:save-screen top
EOF2
	sed -n '3,6p;22,23p' "$BATS_TEST_TMPDIR/table" >"$OUT"
	expect_out <<'EOF2'
 Self      %  Function
3,000 71.43%  count
  700 16.67%  strlen
  500 11.90%  main
count
file: wordfreq.c  object:
EOF2
	sed -n '1,6p' "$BATS_TEST_TMPDIR/detail" >"$OUT"
	expect_out <<'EOF2'
ncgrind: callers and callees
count
Ir self 3,000 (71.43%)
The profile records no calls (a Cachegrind profile has none):
no callers, callees or call trees to show.

EOF2
	sed -n '4,5p' "$BATS_TEST_TMPDIR/tree" >"$OUT"
	sed -n '4,5p' "$BATS_TEST_TMPDIR/top" >>"$OUT"
	expect_out <<'EOF2'
The profile records no calls (a Cachegrind profile has none):
no callers, callees or call trees to show.
The profile records no calls (a Cachegrind profile has none):
no callers, callees or call trees to show.
EOF2
}

@test "cachegrind: the screens without calls hint only Backspace, the one key that does something there" {
	# small.cachegrind has no calls: the callers and callees screen and the trees
	# have no row to open (Enter), expand (Right/Left), follow (e) or turn upward
	# (r, t); they hinted those keys before. The position before the hint is left out.
	local s
	browse "$BATS_TEST_DIRNAME/fixtures/browser/small.cachegrind" <<'EOF2'
Enter
:save-screen detail
Backspace t
:save-screen tree
Backspace r
:save-screen callers
T
:save-screen top
EOF2
	for s in detail tree callers top; do
		tail -n 1 "$BATS_TEST_TMPDIR/$s" | sed 's|^[0-9]*/[0-9]*  ||'
	done >"$OUT"
	# and the diff of two Cachegrind files: a function's calls screen (work_b
	# first: the biggest change of self cost)
	printf '%s\n' Enter ":save-screen $BATS_TEST_TMPDIR/diff" >"$BATS_TEST_TMPDIR/keys"
	(cd "$FIX/diff" && "$NCGRIND" --script="$BATS_TEST_TMPDIR/keys" --diff version1.cachegrind \
		version2.cachegrind)
	tail -n 1 "$BATS_TEST_TMPDIR/diff" | sed 's|^[0-9]*/[0-9]*  ||' >>"$OUT"
	expect_out <<'EOF2'
Backspace: back
Backspace: back
Backspace: back
Backspace: back
Backspace: back
EOF2
}

@test "callers at 80 columns: the name has the room, a call site gives way first, ???:0 is not shown" {
	# sites.callgrind: target's callers by cost: main 200 (53.33% of 375, 57.14%
	# of target's 350, 2 calls), the caller without debug information 100
	# (26.67%, 28.57%), the one in far.c 50 (13.33%, 14.29%). The numbers take 33
	# columns (cost 5, two percentages 8 each, calls 10, 2 blanks), which leaves
	# the names 47: both long ones whole (46 and 40), far.c:7 has no room after
	# the second (40 + 9); ???:0, a call site of code without debug information,
	# says nothing. At 200 columns far.c:7 shows. Before: both names cut to 29
	# columns, 18 kept for the call site, ???:0 among them.
	local s
	browse "$BATS_TEST_DIRNAME/fixtures/browser/sites.callgrind" <<'EOF2'
/ "^target$" Enter Enter
:save-screen narrow
:resize 200x24
:save-screen wide
:goto ^caller_without
Enter
:save-screen nosite
EOF2
	for s in narrow wide; do
		echo "== $s"
		sed -n '4,8p' "$BATS_TEST_TMPDIR/$s"
	done >"$OUT"
	# the caller without debug information: its one call site is ???:0, so no
	# column head for call sites (target 100: 26.67% of 375, 90.91% of its 110)
	echo "== nosite" >>"$OUT"
	sed -n '4,7p' "$BATS_TEST_TMPDIR/nosite" >>"$OUT"
	expect_out <<'EOF2'
== narrow
 Cost  %total   %func     Calls  Function  call site
Callers (3)
  200  53.33%  57.14%         2  main  main.c:20
  100  26.67%  28.57%         1  caller_without_debug_info_and_with_a_long_name
   50  13.33%  14.29%         1  caller_in_far_c_whose_name_is_forty_long
== wide
 Cost  %total   %func     Calls  Function  call site
Callers (3)
  200  53.33%  57.14%         2  main  main.c:20
  100  26.67%  28.57%         1  caller_without_debug_info_and_with_a_long_name
   50  13.33%  14.29%         1  caller_in_far_c_whose_name_is_forty_long  far.c:7
== nosite
 Cost  %total   %func     Calls  Function
Callers (0)
Callees (1)
  100  26.67%  90.91%         1  target
EOF2
}

@test ":write on the source screen writes the whole file with its costs, not the rows on the screen" {
	# main's source: recur.c beside the profile, 103 lines, and main's 7 calls
	# (phase_parity, phase_fib, phase_ring, phase_tree, phase_sort, printf,
	# _dl_runtime_resolve_xsave) as rows of their own: 4 head lines + 110 rows
	local E="$BATS_TEST_DIRNAME/fixtures/example.callgrind"
	browse "$E" <<EOF2
:resize 80x10
:goto ^main\$
v
:write $BATS_TEST_TMPDIR/source.txt
EOF2
	[ "$(wc -l <"$BATS_TEST_TMPDIR/source.txt")" -eq 114 ]
	[ "$(grep -c ' => ' "$BATS_TEST_TMPDIR/source.txt")" -eq 7 ]
	sed -n '1p;4,5p' "$BATS_TEST_TMPDIR/source.txt" >"$OUT"
	expect_out <<'EOF2'
ncgrind: annotated source
     Self  %total  Line  Source
        .             1  /* recur.c - recursion test program for callgrind corpus.
EOF2
	grep -qx '7,269,811  55.31%        => phase_parity (once)' "$BATS_TEST_TMPDIR/source.txt"
}

@test "tree: E through ten functions that all call one another is bounded by the threshold" {
	# ten functions that all call one another, main -> f0 10,000,000 Ir, each
	# other call 1,000,000 Ir, self 10 each (before: every path stayed above
	# the threshold, 8,877,692 rows and half a gigabyte for one E; on cc1plus,
	# gigabytes until out of memory). The calls add up past the total (101), so
	# inclusive costs are capped at 101.
	awk 'BEGIN { print "# callgrind format"; print "events: Ir"; print "fl=k.c"
		print "fn=main"; print "1 1"; print "cfn=f0"; print "calls=1 1"; print "1 10000000"
		for (i = 0; i < 10; i++) {
			printf "fn=f%d\n1 10\n", i
			for (j = 0; j < 10; j++) if (j != i) printf "cfn=f%d\ncalls=1 1\n1 1000000\n", j
		} }' >"$BATS_TEST_TMPDIR/k10.callgrind"
	# Cycles on: main -> <cycle 1> -> the ten members at their self cost: 12 rows.
	# Off: f0 spends 10 + 9 * 1,000,000; each node's 9 calls share its cost, so a
	# level is a ninth of the one above: 101, 11.2, 1.25 (>= 1%), 0.14 (folded):
	# main, f0, 9 at depth 2, under each 9 at depth 3 (one of them f0, recursive),
	# under each of the 8 others one fold row: 2 + 9 * (1 + 9 + 8) = 164 rows.
	browse "$BATS_TEST_TMPDIR/k10.callgrind" <<'EOF2'
:goto ^main$
t E
:save-screen on
@ E
:save-screen off
EOF2
	grep -q '^1/12 ' "$BATS_TEST_TMPDIR/on" || { tail -1 "$BATS_TEST_TMPDIR/on"; return 1; }
	grep -q '^1/164 ' "$BATS_TEST_TMPDIR/off" || { tail -1 "$BATS_TEST_TMPDIR/off"; return 1; }
	# the last resort: no threshold, no cycles (10! paths): E stops at 200,000
	# nodes and leaves a row that says so; the batch tree stops at a million
	browse "$BATS_TEST_TMPDIR/k10.callgrind" <<EOF2
:goto ^main$
@ t
:threshold 0
E
:save-screen cut
:write $BATS_TEST_TMPDIR/cut.txt
EOF2
	assert_grep "tree cut at 200,000 nodes: ) raises the threshold" "$BATS_TEST_TMPDIR/cut"
	[ "$(grep -c 'tree cut at' "$BATS_TEST_TMPDIR/cut.txt")" -eq 1 ]
	grep -Eq '^ +0 +0\.00% .*  \(tree cut at 200,0[0-9]{2} nodes\)$' "$BATS_TEST_TMPDIR/cut.txt" ||
		{ grep 'tree cut' "$BATS_TEST_TMPDIR/cut.txt"; return 1; }
	# and the batch tree stops at a million nodes
	run "$NCGRIND" --dump=tree --root='^main$' --no-cycles --threshold=0 "$BATS_TEST_TMPDIR/k10.callgrind"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -lt 1000100 ]
	assert_grep "(tree cut at 1,000,001 nodes)" <(printf '%s\n' "${lines[@]}")
}

@test "tree: a share that rounds to 100 reads 100.0%, not 100.00% (one column too wide)" {
	# example.callgrind from the entry points: __libc_start_main 13,019,873 of its
	# parent's 13,019,884 = 99.99992%: the %parent column is 7 wide (" 100.0%")
	browse "$BATS_TEST_DIRNAME/fixtures/example.callgrind" <<'EOF2'
T
:save-screen top
EOF2
	sed -n '7p' "$BATS_TEST_TMPDIR/top" >"$OUT"
	expect_out <<'EOF2'
13,019,873  99.06%  100.0%         1      - __libc_start_main@@GLIBC_2.34
EOF2
}

@test "callers/callees: a recursive call is its share of the caller, never the whole profile" {
	# example.callgrind, lines 153-157: is_odd'2 (self 2,789,210 + 837,003 =
	# 3,626,213, also its inclusive cost: nothing outside its cycle calls it)
	# calls is_even'2 278,801 times for 3,376,231,483 Ir as recorded, each
	# nested call counting its callees again: 257 times the total of 13,143,514.
	# Shown as its share of what is_odd'2 spends:
	#   3,376,231,483 * 3,626,213 / (3,626,213 + 3,376,231,483) = 3,622,322.5
	#   -> 3,622,322 = 27.56% of the total, 49.93% of is_even'2's 7,255,017.
	# is_even'2 (self 3,628,804, incl 7,255,017) calls is_odd'2 for 3,379,857,696:
	#   3,379,857,696 * 7,255,017 / (3,628,804 + 3,379,857,696) = 7,247,236.0
	#   -> 55.14%, 99.89%. Before, both read 100.0% 100.0%, cut to the total.
	browse "$BATS_TEST_DIRNAME/fixtures/example.callgrind" <<'EOF2'
:resize 100x20
Enter
:save-screen detail
EOF2
	sed -n '4,9p' "$BATS_TEST_TMPDIR/detail" >"$OUT"
	expect_out <<'EOF2'
      Cost  %total   %func     Calls  Function  call site
Callers (2)
 7,255,017  55.20%  100.0%       399  is_odd  recur.c:14
 3,622,322  27.56%  49.93%   278,801  is_odd'2 <cycle 2> [recursive]  recur.c:14
Callees (1)
 7,247,236  55.14%  99.89%   279,001  is_odd'2 <cycle 2> [recursive]  recur.c:13
EOF2
}
