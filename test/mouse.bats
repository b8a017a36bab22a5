#!/usr/bin/env bats
# The mouse (set mouse on; issue 29), in script mode: Click:ROW,COL,
# DoubleClick:ROW,COL, WheelUp:ROW,COL and WheelDown:ROW,COL stand for what the
# terminal reports (rows and columns from 1, as the terminal counts them). A click
# puts the cursor on the row under it, a double click is Enter there, a click on a
# tree's + or - expands or collapses it, the wheel scrolls the view 3 rows a notch
# (the cursor kept on its row while it is in view, as tig does); on the flame graph
# a click selects a frame. tmux.bats sends the terminal's own reports.
#
# pages.callgrind: f01..f40, no calls, f01 the costliest; at 80x24 the table's
# rows are the screen's rows 4 to 21 (title, events, heads above; the name lines
# and the status line below), so row 8 is the fifth function, f05.

load test_helper

PAGES="$FIX/browser/pages.callgrind"
SPEC="$FIX/spec/spec-extended.callgrind"

# keys LINE...: the script, one line each.
keys() {
	printf '%s\n' "$@" >"$BATS_TEST_TMPDIR/keys"
}

# run_script PROFILE [SIZE]: script mode on PROFILE, no configuration.
run_script() {
	(cd "$BATS_TEST_TMPDIR" &&
		"$NCGRIND" --config=/dev/null --script=keys --size="${2:-80x24}" "$1") 2>"$ERR"
}

@test "mouse: a click on the eighth row of the table puts the cursor there; on the heads, the name lines or the status line, nothing" {
	keys ':set mouse on' 'Click:8,10' ':save-screen s1' \
		'Click:1,10 Click:2,10 Click:3,10 Click:22,10 Click:23,5 Click:24,1' ':save-screen s2'
	run_script "$PAGES"
	refute_grep . "$ERR"
	# the status line's position and the whole name under the table say f05
	sed -n '22p;24p' "$BATS_TEST_TMPDIR/s1" >"$OUT"
	expect_out <<'EOF'
f05
5/40  sort: self Ir   ? help  q quit
EOF
	cmp "$BATS_TEST_TMPDIR/s1" "$BATS_TEST_TMPDIR/s2"
}

@test "mouse: off by default, and after :set mouse off, a click does nothing" {
	keys 'Click:8,10' ':save-screen s1' ':set mouse on' 'Click:6,10' ':set mouse off' \
		'Click:8,10 WheelDown:8,10' ':save-screen s2'
	run_script "$PAGES"
	sed -n '22p;24p' "$BATS_TEST_TMPDIR/s1" >"$OUT"
	expect_out <<'EOF'
f01
1/40  sort: self Ir   ? help  q quit
EOF
	# row 6 while it was on: f03, and there it stays
	sed -n '4p;22p' "$BATS_TEST_TMPDIR/s2" >"$OUT"
	tail -n 1 "$BATS_TEST_TMPDIR/s2" | cut -c1-5 >>"$OUT"
	expect_out <<'EOF'
  4,450  4.45%    4,450  4.45%      0  f01
f03
3/40 
EOF
	"$NCGRIND" --list-settings | grep -q $'^mouse\ton|off\t'
}

@test "mouse: the wheel scrolls 3 rows a notch; the cursor stays on its row while it is in view" {
	# 40 rows, 18 in view: the top goes 0, 3, 6, then at most 22 (f23 first)
	keys ':set mouse on' 'WheelDown:10,10' ':save-screen s1' 'Click:10,10' \
		'WheelDown:10,10' ':save-screen s2' 'WheelUp:5,5 WheelUp:5,5 WheelUp:5,5' \
		':save-screen s3' 'WheelDown:1,1 WheelDown:1,1 WheelDown:1,1 WheelDown:1,1' \
		'WheelDown:1,1 WheelDown:1,1 WheelDown:1,1 WheelDown:1,1' ':save-screen s4'
	run_script "$PAGES"
	refute_grep . "$ERR"
	: >"$OUT"
	for i in 1 2 3 4; do
		# the first row in view, the selected function, the position
		sed -n '4p' "$BATS_TEST_TMPDIR/s$i" | awk '{ print $NF }' >>"$OUT"
		sed -n '22p' "$BATS_TEST_TMPDIR/s$i" >>"$OUT"
		tail -n 1 "$BATS_TEST_TMPDIR/s$i" | awk '{ print $1 }' >>"$OUT"
	done
	# s1: the cursor (f01) left the view: on its first row, f04. s2: row 10 is
	# f10 (top 3 + 7th row); the view moves to f07 and f10 stays. s3: back at the
	# top (6, 3, 0), f10 still in view. s4: the last top, 40 - 18 = 22: f23 first,
	# the cursor pushed onto it.
	expect_out <<'EOF'
f04
f04
4/40
f07
f10
10/40
f01
f10
10/40
f23
f23
23/40
EOF
}

@test "mouse: a double click opens the row as Enter does: the function's callers and callees" {
	# spec-extended's table: func2, func1, main on rows 4 to 6; a click on the
	# "Callees (1)" heading of func1's callers and callees puts the cursor on the
	# callee below it, as Down would
	keys ':set mouse on' 'Click:5,10 DoubleClick:5,10' ':save-screen s1' 'Click:7,3' \
		':save-screen s2'
	run_script "$SPEC" 80x12
	refute_grep . "$ERR"
	sed -n '1,2p;5,8p;12p' "$BATS_TEST_TMPDIR/s1" >"$OUT"
	expect_out <<'EOF'
ncgrind: callers and callees
func1
Callers (1)
  400  48.78%  100.0%         1  main  file1.c:16
Callees (1)
  300  36.59%  75.00%         2  func2  file1.c:51
2/4  Enter: open  t/r: tree  Backspace: back
EOF
	tail -n 1 "$BATS_TEST_TMPDIR/s2" >"$OUT"
	expect_out <<'EOF'
4/4  Enter: open  t/r: tree  Backspace: back
EOF
}

@test "mouse: a click on a tree's - collapses the node, on its + expands it; elsewhere on the row it moves the cursor" {
	# T: main, func1 (opened on the hot path), func2 under it, func2 under main.
	# The heads put the names at column 34 (" Incl   %root %parent     Calls  "
	# is 33 columns); a level indents 2: main's mark is at 34, func1's at 36.
	keys ':set mouse on' 'T' ':save-screen s0' 'Click:6,36' ':save-screen s1' \
		'Click:5,40' ':save-screen s2' 'Click:6,36' ':save-screen s3' 'Click:5,34' \
		':save-screen s4'
	run_script "$SPEC" 100x16
	refute_grep . "$ERR"
	sed -n '4,8p;16p' "$BATS_TEST_TMPDIR/s0" >"$OUT"
	expect_out <<'EOF'
 Incl   %root %parent     Calls  Function, then its callees
  820  100.0%  100.0%            - main
  400  48.78%  48.78%         1    - func1
  300  36.59%  75.00%         2        func2
  400  48.78%  48.78%         3      func2
1/4  Right/Left: expand/collapse  e: hot path  r: callers
EOF
	sed -n '5,8p;16p' "$BATS_TEST_TMPDIR/s1" >"$OUT"
	expect_out <<'EOF'
  820  100.0%  100.0%            - main
  400  48.78%  48.78%         1    + func1
  400  48.78%  48.78%         3      func2

2/3  Right/Left: expand/collapse  e: hot path  r: callers
EOF
	# on main's name: the cursor only
	sed -n '5,8p;16p' "$BATS_TEST_TMPDIR/s2" >"$OUT"
	expect_out <<'EOF'
  820  100.0%  100.0%            - main
  400  48.78%  48.78%         1    + func1
  400  48.78%  48.78%         3      func2

1/3  Right/Left: expand/collapse  e: hot path  r: callers
EOF
	sed -n '5,8p;16p' "$BATS_TEST_TMPDIR/s3" >"$OUT"
	expect_out <<'EOF'
  820  100.0%  100.0%            - main
  400  48.78%  48.78%         1    - func1
  300  36.59%  75.00%         2        func2
  400  48.78%  48.78%         3      func2
2/4  Right/Left: expand/collapse  e: hot path  r: callers
EOF
	sed -n '5,6p;16p' "$BATS_TEST_TMPDIR/s4" >"$OUT"
	expect_out <<'EOF'
  820  100.0%  100.0%            + main

1/1  Right/Left: expand/collapse  e: hot path  r: callers
EOF
}

@test "mouse: on the flame graph a click selects the frame under it, a double click zooms in, the wheel moves the selection" {
	# 80 columns of 8 eighths for main's 820: func1 (400) ends at 312 eighths
	# (cells 1-39), func2 (400) from 312 to 624 (cells 40-78); func1's func2 (300)
	# ends at 234 eighths: 29 whole cells and 2 eighths of cell 30, where its end
	# is drawn; nothing at cell 31. Rows: main on screen row 3, then 4, 5.
	keys ':set mouse on' 'F' 'Click:4,70' ':save-screen s1' 'Click:5,30' \
		':save-screen s2' 'Click:5,31 Click:1,1 Click:10,70' ':save-screen s3' \
		'WheelUp:5,5' ':save-screen s4' 'WheelDown:5,5' ':save-screen s5' \
		'DoubleClick:4,70' ':save-screen s6'
	run_script "$SPEC" 80x10
	refute_grep . "$ERR"
	: >"$OUT"
	for i in 1 2 3 4 5; do
		tail -n 1 "$BATS_TEST_TMPDIR/s$i" | awk '{ print $1, $2 }' >>"$OUT"
	done
	# up from func2 (depth 2): main; down 3 rows from main: along func1 to its func2
	expect_out <<'EOF'
func2 400
func2 300
func2 300
main 820
func2 300
EOF
	sed -n 2p "$BATS_TEST_TMPDIR/s6" >"$OUT"
	expect_out <<'EOF'
zoomed into func2: 400, 48.78% of the total (Backspace: out)
EOF
}

@test "mouse: the help's lines, under its title; nothing while a prompt is open" {
	keys ':set mouse on' '?' 'Click:5,1' ':save-screen s1' ': Click:8,10 Esc' \
		':save-screen s2'
	run_script "$PAGES"
	tail -n 1 "$BATS_TEST_TMPDIR/s1" | cut -d' ' -f1 | sed 's|/.*||' >"$OUT"
	expect_out <<'EOF'
4
EOF
	cmp "$BATS_TEST_TMPDIR/s1" "$BATS_TEST_TMPDIR/s2"
}
