#!/usr/bin/env bats
# The browser, driven headless by script mode (--script=KEYS [--size=COLSxROWS]): each
# test runs a script of keys and :save-screen commands and compares the saved screens
# with the screens written here, worked out by hand from the fixture (the comments
# give the arithmetic; the spec example's numbers are also those of callgrind_annotate
# in test/fixtures/oracle/spec-extended.annotate-*.txt).
# Fixtures: test/fixtures/browser/ (each explains its numbers in comments), and a few
# of spec/, edge/ and malformed/.
#
# The screen: row 1 the title, row 2 the events and the total, row 3 the column heads,
# then the table; with 10 rows or more, two detail lines (the selected function's whole
# name; its calls, file and object); the last row is the status line
# "POS/COUNT  sort: KEY [EVENT] [(reversed)]" and a message or "? help  q quit".
# The cursor is an attribute, which a saved screen does not show: the detail lines
# and POS say which function is selected.

load test_helper

B="$BATS_TEST_DIRNAME/fixtures/browser"

# browse PROFILE [OPTIONS...]: run the browser on a copy of PROFILE in $BATS_TEST_TMPDIR,
# from that directory, with the script read from stdin. So `:save-screen NAME` in the
# script writes $BATS_TEST_TMPDIR/NAME, and the title and the messages show the bare
# file name, wherever the tests are run from.
browse() {
	local profile=$1
	shift
	cp "$profile" "$BATS_TEST_TMPDIR/"
	cat >"$BATS_TEST_TMPDIR/keys"
	cd "$BATS_TEST_TMPDIR" || return
	ncg --script=keys "$@" "${profile##*/}"
}

# browse_ok PROFILE [OPTIONS...]: the same, and the run must succeed without messages.
browse_ok() {
	browse "$@"
	expect_status 0
	expect_no_err
}

# expect_screen NAME: the saved screen NAME must be the text on stdin.
expect_screen() {
	cat >"$BATS_TEST_TMPDIR/expected.$1"
	_expect_diff "$BATS_TEST_TMPDIR/expected.$1" "$BATS_TEST_TMPDIR/$1" "screen $1"
}

# screen_rows SED-SELECTION NAME...: into $OUT, for each saved screen NAME a line
# "== NAME" then its rows picked by `sed -n SED-SELECTION` (e.g. '4,6p;24p'); then
# compared with expect_out.
screen_rows() {
	local sel=$1 s
	shift
	for s; do
		echo "== $s"
		sed -n "$sel" "$BATS_TEST_TMPDIR/$s"
	done >"$OUT"
}

# assert_clean NAME COLS ROWS: the saved screen NAME has ROWS lines, none wider than COLS
# columns (wc -L: display width), and no control byte (C0, DEL, or a UTF-8 C1 such as
# U+009B CSI) that a terminal would interpret.
assert_clean() {
	local f="$BATS_TEST_TMPDIR/$1" n w
	[ -f "$f" ] || { echo "screen $1 was not saved"; return 1; }
	n=$(wc -l <"$f")
	if [ "$n" -ne "$3" ]; then
		echo "screen $1: $n rows, expected $3"
		return 1
	fi
	w=$(wc -L <"$f")
	if [ "$w" -gt "$2" ]; then
		echo "screen $1: a line $w columns wide, more than $2:"
		cat "$f"
		return 1
	fi
	if LC_ALL=C grep -q -P '[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$f"; then
		echo "screen $1: control bytes:"
		LC_ALL=C grep -n -P '[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$f" | cat -A
		return 1
	fi
}

# ---------------------------------------------------------------- first screen

@test "first screen: the spec's extended example at 80x24" {
	# spec-extended.callgrind (the format specification's example, one event
	# 'Instructions'):
	#   main  (file1.c) self 20, calls func1 1x (400) and func2 3x (400): incl 820
	#   func1 (file1.c) self 100, calls func2 2x (300): incl 400; called 1x
	#   func2 (file2.c) self 700, incl 700; called 3 + 2 = 5x
	# Total 820 = 20 + 100 + 700 (callgrind_annotate: "820 (100.0%) PROGRAM TOTALS").
	# Shares: 700/820 = 85.37%, 400/820 = 48.78%, 100/820 = 12.20%, 20/820 = 2.44%
	# (callgrind_annotate's self column: 85.37%, 12.20%, 2.44%).
	# Sorted by self cost, largest first; the first row selected: 1/3.
	# Columns: costs 4 wide (at least "Incl"), percentages 6, calls 5 ("Calls").
	browse_ok "$FIX/spec/spec-extended.callgrind" <<'EOF'
:save-screen first
EOF
	expect_screen first <<'EOF'
ncgrind: spec-extended.callgrind
Events: [Instructions]   Total Instructions: 820   Parts: 1
Incl      %  Self      %  Calls  Function
 700 85.37%   700 85.37%      5  func2
 400 48.78%   100 12.20%      1  func1
 820 100.0%    20  2.44%      0  main















func2
called 5 times  file: file2.c  object:
1/3  sort: self Instructions   ? help  q quit
EOF
}

@test "the Calls column is as wide as the most calls among the rows, filtered or not" {
	# A profile made here: main calls f 1,234,567 times (cost 10) and g
	# 3 times (cost 5). "1,234,567" is 9 columns, wider than "Calls": the
	# column takes 9 while f is a row; filtered to g (3 calls), it is
	# "Calls" wide again (5), and 9 once the filter goes.
	mkdir "$BATS_TEST_TMPDIR/p"
	printf '%s\n' '# callgrind format' 'events: Ir' 'fl=t.c' 'fn=main' '1 1' 'cfn=f' \
		'calls=1234567 2' '1 10' 'cfn=g' 'calls=3 3' '1 5' 'fn=f' '2 10' 'fn=g' '3 5' \
		>"$BATS_TEST_TMPDIR/p/t.callgrind"
	browse_ok "$BATS_TEST_TMPDIR/p/t.callgrind" <<'EOF'
:save-screen all
:filter ^g$
:save-screen g
:filter
:save-screen again
EOF
	screen_rows '3p' all g again
	expect_out <<'EOF'
== all
Incl      %  Self      %      Calls  Function
== g
Incl      %  Self      %  Calls  Function
== again
Incl      %  Self      %      Calls  Function
EOF
}

@test "first screen: --size is honoured, the default is 80x24" {
	browse_ok "$FIX/spec/spec-extended.callgrind" --size=60x12 <<'EOF'
:save-screen s
EOF
	assert_clean s 60 12
	browse_ok "$FIX/spec/spec-extended.callgrind" <<'EOF'
:save-screen s
EOF
	assert_clean s 80 24
}

@test "first screen: 120 columns or more add the File column" {
	# 140 columns: the file column is (140 - 60) / 3 = 26 wide, at column 114; the
	# name gets 140 - (2 * (4 + 1 + 6 + 2) + 5 + 2) - (26 + 2) = 79 columns.
	browse_ok "$FIX/spec/spec-extended.callgrind" --size=140x10 <<'EOF'
:save-screen wide
EOF
	expect_screen wide <<'EOF'
ncgrind: spec-extended.callgrind
Events: [Instructions]   Total Instructions: 820   Parts: 1
Incl      %  Self      %  Calls  Function                                                                         File
 700 85.37%   700 85.37%      5  func2                                                                            file2.c
 400 48.78%   100 12.20%      1  func1                                                                            file1.c
 820 100.0%    20  2.44%      0  main                                                                             file1.c

func2
called 5 times  file: file2.c  object:
1/3  sort: self Instructions   ? help  q quit
EOF
}

# ---------------------------------------------------------------- sorting

@test "sort: i, s, c, a, the same key again reverses; the new order shows from its top" {
	# spec-extended: incl main 820 > func2 700 > func1 400; self func2 700 > func1 100
	# > main 20; calls func2 5 > func1 1 > main 0; names func1 < func2 < main.
	# Each new order is shown from its top, the cursor on its first row (as tig
	# and htop do; the selection used to follow func2 and scroll the top away).
	# A new key sorts largest first (names: a first); the same key again reverses.
	browse_ok "$FIX/spec/spec-extended.callgrind" <<'EOF'
i
:save-screen i
i
:save-screen ii
c
:save-screen c
c
:save-screen cc
a
:save-screen a
a
:save-screen aa
s
:save-screen s
s
:save-screen ss
s
:save-screen sss
EOF
	screen_rows '4,6p;22p;24p' i ii c cc a aa s ss sss
	expect_out <<'EOF'
== i
 820 100.0%    20  2.44%      0  main
 700 85.37%   700 85.37%      5  func2
 400 48.78%   100 12.20%      1  func1
main
1/3  sort: incl Instructions   ? help  q quit
== ii
 400 48.78%   100 12.20%      1  func1
 700 85.37%   700 85.37%      5  func2
 820 100.0%    20  2.44%      0  main
func1
1/3  sort: incl Instructions (reversed)   ? help  q quit
== c
 700 85.37%   700 85.37%      5  func2
 400 48.78%   100 12.20%      1  func1
 820 100.0%    20  2.44%      0  main
func2
1/3  sort: calls   ? help  q quit
== cc
 820 100.0%    20  2.44%      0  main
 400 48.78%   100 12.20%      1  func1
 700 85.37%   700 85.37%      5  func2
main
1/3  sort: calls (reversed)   ? help  q quit
== a
 400 48.78%   100 12.20%      1  func1
 700 85.37%   700 85.37%      5  func2
 820 100.0%    20  2.44%      0  main
func1
1/3  sort: name   ? help  q quit
== aa
 820 100.0%    20  2.44%      0  main
 700 85.37%   700 85.37%      5  func2
 400 48.78%   100 12.20%      1  func1
main
1/3  sort: name (reversed)   ? help  q quit
== s
 700 85.37%   700 85.37%      5  func2
 400 48.78%   100 12.20%      1  func1
 820 100.0%    20  2.44%      0  main
func2
1/3  sort: self Instructions   ? help  q quit
== ss
 820 100.0%    20  2.44%      0  main
 400 48.78%   100 12.20%      1  func1
 700 85.37%   700 85.37%      5  func2
main
1/3  sort: self Instructions (reversed)   ? help  q quit
== sss
 700 85.37%   700 85.37%      5  func2
 400 48.78%   100 12.20%      1  func1
 820 100.0%    20  2.44%      0  main
func2
1/3  sort: self Instructions   ? help  q quit
EOF
}

@test "sort: equal costs are ordered by name, then file" {
	# report/ties.callgrind: big 20; alpha, mid, zeta 10 each (t.c); dup 5 in b.c and
	# dup 5 in a.c. Total 60. 20/60 = 33.33%, 10/60 = 16.67%, 5/60 = 8.33%.
	# Ties by name (alpha < mid < zeta), then file (a.c < b.c): the file column (120
	# columns) tells the two dups apart.
	browse_ok "$FIX/report/ties.callgrind" --size=120x12 <<'EOF'
:save-screen ties
EOF
	screen_rows '3,9p' ties
	expect_out <<'EOF'
== ties
Incl      %  Self      %  Calls  Function                                                           File
  20 33.33%    20 33.33%      0  big                                                                t.c
  10 16.67%    10 16.67%      0  alpha                                                              t.c
  10 16.67%    10 16.67%      0  mid                                                                t.c
  10 16.67%    10 16.67%      0  zeta                                                               t.c
   5  8.33%     5  8.33%      0  dup                                                                a.c
   5  8.33%     5  8.33%      0  dup                                                                b.c
EOF
}

# ---------------------------------------------------------------- events

@test "events: Tab and S-Tab step through the events (inherited ones too), re-sorted" {
	# edge-event-longnames-inherited.callgrind: events Ir Dr I1mr D1mr, then the
	# inherited Sum = Ir + Dr, L1m = I1mr + D1mr, CEst = Ir + 10 I1mr + 10 D1mr.
	#   main self: lines 5 and 6: Ir 1000+500 = 1500, Dr 300+100 = 400, I1mr 10,
	#              D1mr 20; Sum 1900, L1m 30, CEst 1500+100+200 = 1800
	#   main calls leaf 10x costing 2000 800 5 30 -> main incl Ir 3500, Dr 1200,
	#              I1mr 15, D1mr 50, Sum 4700, L1m 65, CEst 2350+1800 = 4150
	#   leaf self = incl: 2000 800 5 30, Sum 2800, L1m 35, CEst 2000+50+300 = 2350
	# The totals are main's incl. Shares of the self costs:
	#   Ir   leaf 2000/3500 = 57.14%  main 1500/3500 = 42.86%
	#   Dr   leaf  800/1200 = 66.67%  main  400/1200 = 33.33%
	#   I1mr main   10/15   = 66.67%  leaf    5/15   = 33.33%   (main first)
	#   D1mr leaf   30/50   = 60.00%  main   20/50   = 40.00%
	#   Sum  leaf 2800/4700 = 59.57%  main 1900/4700 = 40.43%
	#   L1m  leaf   35/65   = 53.85%  main   30/65   = 46.15%
	#   CEst leaf 2350/4150 = 56.63%  main 1800/4150 = 43.37%
	# Costs are as wide as the total (at least 4). The cursor stays on its
	# function (leaf) whatever the order: on I1mr it is the second row.
	# After CEst, Tab comes back to Ir; S-Tab from Ir goes to CEst.
	browse_ok "$FIX/edge/edge-event-longnames-inherited.callgrind" <<'EOF'
:save-screen Ir
Tab
:save-screen Dr
Tab
:save-screen I1mr
Tab
:save-screen D1mr
Tab
:save-screen Sum
Tab
:save-screen L1m
Tab
:save-screen CEst
Tab
:save-screen Ir-again
S-Tab
:save-screen CEst-back
S-Tab S-Tab S-Tab S-Tab
:save-screen I1mr-back
EOF
	screen_rows '2,5p;22p;24p' Ir Dr I1mr D1mr Sum L1m CEst Ir-again CEst-back I1mr-back
	expect_out <<'EOF'
== Ir
Events: [Ir] Dr I1mr D1mr Sum L1m CEst   Total Ir: 3,500   Parts: 1
 Incl      %   Self      %  Calls  Function
2,000 57.14%  2,000 57.14%     10  leaf
3,500 100.0%  1,500 42.86%      0  main
leaf
1/2  sort: self Ir   ? help  q quit
== Dr
Events: Ir [Dr] I1mr D1mr Sum L1m CEst   Total Dr: 1,200   Parts: 1
 Incl      %   Self      %  Calls  Function
  800 66.67%    800 66.67%     10  leaf
1,200 100.0%    400 33.33%      0  main
leaf
1/2  sort: self Dr   ? help  q quit
== I1mr
Events: Ir Dr [I1mr] D1mr Sum L1m CEst   Total I1mr: 15   Parts: 1
Incl      %  Self      %  Calls  Function
  15 100.0%    10 66.67%      0  main
   5 33.33%     5 33.33%     10  leaf
leaf
2/2  sort: self I1mr   ? help  q quit
== D1mr
Events: Ir Dr I1mr [D1mr] Sum L1m CEst   Total D1mr: 50   Parts: 1
Incl      %  Self      %  Calls  Function
  30 60.00%    30 60.00%     10  leaf
  50 100.0%    20 40.00%      0  main
leaf
1/2  sort: self D1mr   ? help  q quit
== Sum
Events: Ir Dr I1mr D1mr [Sum] L1m CEst   Total Sum: 4,700   Parts: 1
 Incl      %   Self      %  Calls  Function
2,800 59.57%  2,800 59.57%     10  leaf
4,700 100.0%  1,900 40.43%      0  main
leaf
1/2  sort: self Sum   ? help  q quit
== L1m
Events: Ir Dr I1mr D1mr Sum [L1m] CEst   Total L1m: 65   Parts: 1
Incl      %  Self      %  Calls  Function
  35 53.85%    35 53.85%     10  leaf
  65 100.0%    30 46.15%      0  main
leaf
1/2  sort: self L1m   ? help  q quit
== CEst
Events: Ir Dr I1mr D1mr Sum L1m [CEst]   Total CEst: 4,150   Parts: 1
 Incl      %   Self      %  Calls  Function
2,350 56.63%  2,350 56.63%     10  leaf
4,150 100.0%  1,800 43.37%      0  main
leaf
1/2  sort: self CEst   ? help  q quit
== Ir-again
Events: [Ir] Dr I1mr D1mr Sum L1m CEst   Total Ir: 3,500   Parts: 1
 Incl      %   Self      %  Calls  Function
2,000 57.14%  2,000 57.14%     10  leaf
3,500 100.0%  1,500 42.86%      0  main
leaf
1/2  sort: self Ir   ? help  q quit
== CEst-back
Events: Ir Dr I1mr D1mr Sum L1m [CEst]   Total CEst: 4,150   Parts: 1
 Incl      %   Self      %  Calls  Function
2,350 56.63%  2,350 56.63%     10  leaf
4,150 100.0%  1,800 43.37%      0  main
leaf
1/2  sort: self CEst   ? help  q quit
== I1mr-back
Events: Ir Dr [I1mr] D1mr Sum L1m CEst   Total I1mr: 15   Parts: 1
Incl      %  Self      %  Calls  Function
  15 100.0%    10 66.67%      0  main
   5 33.33%     5 33.33%     10  leaf
leaf
2/2  sort: self I1mr   ? help  q quit
EOF
}

@test "events: sorted by calls or name, another event keeps the order" {
	# sort by name (leaf < main), then I1mr: the rows stay, the costs change
	browse_ok "$FIX/edge/edge-event-longnames-inherited.callgrind" <<'EOF'
a Tab Tab
:save-screen name-I1mr
EOF
	screen_rows '2,5p;24p' name-I1mr
	expect_out <<'EOF'
== name-I1mr
Events: Ir Dr [I1mr] D1mr Sum L1m CEst   Total I1mr: 15   Parts: 1
Incl      %  Self      %  Calls  Function
   5 33.33%     5 33.33%     10  leaf
  15 100.0%    10 66.67%      0  main
1/2  sort: name   ? help  q quit
EOF
}

# ---------------------------------------------------------------- moving, paging

@test "paging: PgDn, C-f, Space, PgUp, C-b, Home, End, g, G, j, k on 40 functions" {
	# pages.callgrind: f01..f40, fNN self (= incl) 100 * (41 - NN) + 450, total
	# 100,000: fNN's share is its cost / 1000 %. Sorted by self cost: f01 first.
	# 24 rows: 18 table rows (24 - 3 heads - 2 detail - 1 status).
	browse_ok "$B/pages.callgrind" <<'EOF'
:save-screen first
EOF
	expect_screen first <<'EOF'
ncgrind: pages.callgrind
Events: [Ir]   Total Ir: 100,000   Parts: 1
   Incl      %     Self      %  Calls  Function
  4,450  4.45%    4,450  4.45%      0  f01
  4,350  4.35%    4,350  4.35%      0  f02
  4,250  4.25%    4,250  4.25%      0  f03
  4,150  4.15%    4,150  4.15%      0  f04
  4,050  4.05%    4,050  4.05%      0  f05
  3,950  3.95%    3,950  3.95%      0  f06
  3,850  3.85%    3,850  3.85%      0  f07
  3,750  3.75%    3,750  3.75%      0  f08
  3,650  3.65%    3,650  3.65%      0  f09
  3,550  3.55%    3,550  3.55%      0  f10
  3,450  3.45%    3,450  3.45%      0  f11
  3,350  3.35%    3,350  3.35%      0  f12
  3,250  3.25%    3,250  3.25%      0  f13
  3,150  3.15%    3,150  3.15%      0  f14
  3,050  3.05%    3,050  3.05%      0  f15
  2,950  2.95%    2,950  2.95%      0  f16
  2,850  2.85%    2,850  2.85%      0  f17
  2,750  2.75%    2,750  2.75%      0  f18
f01
called 0 times  file: pages.c  object:
1/40  sort: self Ir   ? help  q quit
EOF
	# A page is the 18 table rows: the table scrolls a whole page and the cursor
	# with it (as less and tig do); the first row shown stops at 40 - 18 + 1 = 23.
	#   PgDn  top 1 -> 19, row 1 -> 19: f19, shown f19..f36
	#   C-f   top 19 -> 37, but at most 23; row 19 -> 37: f37, shown f23..f40
	#   Space row 37 -> 55, past the end: the last, f40; shown f23..f40
	#   PgDn  at the end: stays
	#   PgUp  top 23 -> 5, row 40 -> 22: f22, shown f05..f22
	#   C-b   top 5 -> 1, row 22 -> 4: f04, shown f01..f18
	#   C-b   row 4 -> before the first: f01, shown f01..f18
	#   End / G: f40 (f23..f40); Home / g: f01 (f01..f18)
	#   k at the first row, j at the last: no move
	#   j j j from f01: f04 (f01..f18); Down, Up
	#   k from f40: f39, the table does not scroll (f23..f40)
	browse_ok "$B/pages.callgrind" <<'EOF'
PgDn
:save-screen PgDn
C-f
:save-screen C-f
Space
:save-screen Space
PgDn
:save-screen PgDn-end
PgUp
:save-screen PgUp
C-b
:save-screen C-b
C-b
:save-screen C-b-start
End
:save-screen End
Home
:save-screen Home
G
:save-screen G
g
:save-screen g
k Up
:save-screen k-first
j j j
:save-screen jjj
Down Down Up
:save-screen Down-Down-Up
G j Down
:save-screen j-last
k
:save-screen k-last
EOF
	# each screen: the first and the last function shown, the selected one (the
	# detail line), the position
	for s in PgDn C-f Space PgDn-end PgUp C-b C-b-start End Home G g k-first jjj \
		Down-Down-Up j-last k-last; do
		awk -v s="$s" 'NR == 4 { top = $NF } NR == 21 { bottom = $NF } NR == 22 { sel = $0 }
			NR == 24 { pos = $1 } END { print s ": " top ".." bottom " " sel " " pos }' \
			"$BATS_TEST_TMPDIR/$s"
	done >"$OUT"
	expect_out <<'EOF'
PgDn: f19..f36 f19 19/40
C-f: f23..f40 f37 37/40
Space: f23..f40 f40 40/40
PgDn-end: f23..f40 f40 40/40
PgUp: f05..f22 f22 22/40
C-b: f01..f18 f04 4/40
C-b-start: f01..f18 f01 1/40
End: f23..f40 f40 40/40
Home: f01..f18 f01 1/40
G: f23..f40 f40 40/40
g: f01..f18 f01 1/40
k-first: f01..f18 f01 1/40
jjj: f01..f18 f04 4/40
Down-Down-Up: f01..f18 f05 5/40
j-last: f23..f40 f40 40/40
k-last: f23..f40 f39 39/40
EOF
	# and the last page in full: f23 2,250 (2.25%) ... f40 550 (0.55%)
	expect_screen End <<'EOF'
ncgrind: pages.callgrind
Events: [Ir]   Total Ir: 100,000   Parts: 1
   Incl      %     Self      %  Calls  Function
  2,250  2.25%    2,250  2.25%      0  f23
  2,150  2.15%    2,150  2.15%      0  f24
  2,050  2.05%    2,050  2.05%      0  f25
  1,950  1.95%    1,950  1.95%      0  f26
  1,850  1.85%    1,850  1.85%      0  f27
  1,750  1.75%    1,750  1.75%      0  f28
  1,650  1.65%    1,650  1.65%      0  f29
  1,550  1.55%    1,550  1.55%      0  f30
  1,450  1.45%    1,450  1.45%      0  f31
  1,350  1.35%    1,350  1.35%      0  f32
  1,250  1.25%    1,250  1.25%      0  f33
  1,150  1.15%    1,150  1.15%      0  f34
  1,050  1.05%    1,050  1.05%      0  f35
    950  0.95%      950  0.95%      0  f36
    850  0.85%      850  0.85%      0  f37
    750  0.75%      750  0.75%      0  f38
    650  0.65%      650  0.65%      0  f39
    550  0.55%      550  0.55%      0  f40
f40
called 0 times  file: pages.c  object:
40/40  sort: self Ir   ? help  q quit
EOF
}

@test "paging: a page is the table's height on a small screen" {
	# 80x12: 12 - 3 - 2 - 1 = 6 table rows. PgDn from f01: f07, shown f07..f12;
	# PgDn: f13 (f13..f18); PgUp: f07 (f07..f12).
	browse_ok "$B/pages.callgrind" --size=80x12 <<'EOF'
PgDn
:save-screen p1
PgDn
:save-screen p2
PgUp
:save-screen p3
EOF
	for s in p1 p2 p3; do
		awk -v s="$s" 'NR == 4 { top = $NF } NR == 9 { bottom = $NF } NR == 10 { sel = $0 }
			NR == 12 { pos = $1 } END { print s ": " top ".." bottom " " sel " " pos }' \
			"$BATS_TEST_TMPDIR/$s"
	done >"$OUT"
	expect_out <<'EOF'
p1: f07..f12 f07 7/40
p2: f13..f18 f13 13/40
p3: f07..f12 f07 7/40
EOF
}

# ---------------------------------------------------------------- search

@test "search: / regex Enter, n, N, wrapping, case, no match, bad regex, Esc" {
	# search.callgrind, by self cost: 1 render_page 250, 2 parse_header 200,
	# 3 Render 150, 4 ParseMain 120, 5 emit 110, 6 parse_body 100, 7 main 70
	# (total 1,000: shares 25.00% ... 7.00%).
	#   n before any search: a message, no move
	#   / "pars" shows the prompt "/pars_" on the status line
	#   "parse" (no upper case: any case) from render_page (1): parse_header (2)
	#   n: ParseMain (4) (matches in any case); n: parse_body (6); n: wraps to 2
	#   N from 2: back over the top to parse_body (6)
	#   "Parse" (an upper case letter: exact case) from 6: over the end to ParseMain
	#   (4), the only match; n stays there
	#   "zzz": no match, no move; "(": regcomp fails, regerror's reason for REG_EPAREN
	#   (glibc: "Unmatched ( or \("); no move
	#   "^(emit|main)$" (extended syntax): emit (5); n: main (7); n: wraps to emit
	#   / "abc" Esc cancels: n still searches ^(emit|main)$: main (7)
	#   "rendx" Backspace "er_" : the pattern "render_": render_page (1)
	browse_ok "$B/search.callgrind" <<'EOF'
:save-screen start
n
:save-screen n-none
/ "pars"
:save-screen prompt
"e" Enter
:save-screen parse
n
:save-screen n1
n
:save-screen n2
n
:save-screen n3-wrap
N
:save-screen N-wrap
/ "Parse" Enter
:save-screen Parse
n
:save-screen Parse-n
/ "zzz" Enter
:save-screen zzz
/ "(" Enter
:save-screen paren
/ "^(emit|main)$" Enter
:save-screen emit
n
:save-screen emit-n
n
:save-screen emit-n-wrap
/ "abc" Esc
:save-screen esc
n
:save-screen esc-n
/ "rendx" Backspace "er_" Enter
:save-screen backspace
EOF
	screen_rows '22p;24p' start n-none prompt parse n1 n2 n3-wrap N-wrap Parse Parse-n \
		zzz paren emit emit-n emit-n-wrap esc esc-n backspace
	expect_out <<'EOF'
== start
render_page
1/7  sort: self Ir   ? help  q quit
== n-none
render_page
1/7  sort: self Ir   no search yet: type / and a regular expression
== prompt
render_page
/pars_
== parse
parse_header
2/7  sort: self Ir   1 of 3 matches
== n1
ParseMain
4/7  sort: self Ir   2 of 3 matches
== n2
parse_body
6/7  sort: self Ir   3 of 3 matches
== n3-wrap
parse_header
2/7  sort: self Ir   1 of 3 matches (search wrapped)
== N-wrap
parse_body
6/7  sort: self Ir   3 of 3 matches (search wrapped)
== Parse
ParseMain
4/7  sort: self Ir   1 of 1 match (search wrapped)
== Parse-n
ParseMain
4/7  sort: self Ir   1 of 1 match (search wrapped)
== zzz
ParseMain
4/7  sort: self Ir   nothing here matches
== paren
ParseMain
4/7  sort: self Ir   bad regular expression '(': Unmatched ( or \(
== emit
emit
5/7  sort: self Ir   1 of 2 matches
== emit-n
main
7/7  sort: self Ir   2 of 2 matches
== emit-n-wrap
emit
5/7  sort: self Ir   1 of 2 matches (search wrapped)
== esc
emit
5/7  sort: self Ir   ? help  q quit
== esc-n
main
7/7  sort: self Ir   2 of 2 matches
== backspace
render_page
1/7  sort: self Ir   1 of 1 match (search wrapped)
EOF
	# the table itself does not change
	expect_screen parse <<'EOF'
ncgrind: search.callgrind
Events: [Ir]   Total Ir: 1,000   Parts: 1
 Incl      %   Self      %  Calls  Function
  250 25.00%    250 25.00%      0  render_page
  200 20.00%    200 20.00%      0  parse_header
  150 15.00%    150 15.00%      0  Render
  120 12.00%    120 12.00%      0  ParseMain
  110 11.00%    110 11.00%      0  emit
  100 10.00%    100 10.00%      0  parse_body
   70  7.00%     70  7.00%      0  main











parse_header
called 0 times  file: s.c  object:
2/7  sort: self Ir   1 of 3 matches
EOF
}

@test "search: a match on the selected row stays; after a sort, n goes on from the new top" {
	# "render" (any case) on render_page (1): stays. n: Render (3).
	# Sorted by name (bytewise: upper case first): ParseMain, Render, emit, main,
	# parse_body, parse_header, render_page, shown from the top (ParseMain, 1/7);
	# n from there: Render (2/7); n: render_page (7/7).
	browse_ok "$B/search.callgrind" <<'EOF'
/ "render" Enter
:save-screen r0
n
:save-screen r1
a
:save-screen r2
n
:save-screen r3
n
:save-screen r4
EOF
	screen_rows '22p;24p' r0 r1 r2 r3 r4
	expect_out <<'EOF'
== r0
render_page
1/7  sort: self Ir   1 of 2 matches
== r1
Render
3/7  sort: self Ir   2 of 2 matches
== r2
ParseMain
1/7  sort: name   ? help  q quit
== r3
Render
2/7  sort: name   1 of 2 matches
== r4
render_page
7/7  sort: name   2 of 2 matches
EOF
}

@test "search: a UTF-8 pattern typed in a script finds a UTF-8 name" {
	# escapes.callgrind's last function (5/5) is gr U+00FC U+00DF e_ and two CJK
	# characters. The script types the characters of "grü" (as a terminal does: the
	# tmux test types the same at a real terminal); the prompt shows them as typed.
	browse_ok "$B/escapes.callgrind" <<'EOF'
/ "grü"
:save-screen prompt
Enter
:save-screen found
g / "数据" Enter
:save-screen found-cjk
EOF
	screen_rows '22p;24p' prompt found found-cjk
	expect_out <<'EOF'
== prompt
red\x1b[31mx\x01\x7f
/grü_
== found
grüße_数据
5/5  sort: self Ir   1 of 1 match
== found-cjk
grüße_数据
5/5  sort: self Ir   1 of 1 match
EOF
}

# ---------------------------------------------------------------- help

@test "help: ? lists the screen's own keys first, then the generic ones, then the commands" {
	# The table's keymap (screen_table.c): i s c a, > <, Right; then the
	# generic keymap (keys.c) without the keys the table binds otherwise. The
	# help is a list: 22 of its lines on a 24-row screen (title, status).
	browse_ok "$FIX/spec/spec-extended.callgrind" <<'EOF'
?
:save-screen help
q
:save-screen closed-q
j
:save-screen after-q
F1
:save-screen help-F1
Esc
:save-screen closed-Esc
?
?
:save-screen closed-help
EOF
	# (the number of lines of the help is no matter here: N)
	sed -i 's|^1/[0-9]*  q, Esc|1/N  q, Esc|' "$BATS_TEST_TMPDIR/help"
	expect_screen help <<'EOF'
ncgrind: help: this screen's keys, every screen's, the commands
Keys of the function table (table)
  i                     sort by inclusive cost (again: reverse)
  s                     sort by self cost (again: reverse)
  c                     sort by call count (again: reverse)
  a                     sort by name (again: reverse)
  >                     scroll the full name of the function right
  <                     scroll the full name of the function left
  Right                 open the function: its callers and callees

Keys of every screen (generic)
  j, Down               move down one line
  k, Up                 move up one line
  PgDn, C-f, Space      move down one page
  PgUp, C-b             move up one page
  Home, g               go to the first row
  End, G                go to the last row
  Enter                 open the function: its callers and callees
  Backspace, Esc        go back to the previous screen
  [                     back in the history of screens
  ]                     forward in the history of screens
  t                     call tree of the function (its callees)
  r                     inverted tree: its callers, upward
1/N  q, Esc, ?: close  / search  PgDn, Space, End: move
EOF
	screen_rows '1p;2p' help-F1
	expect_out <<'EOF'
== help-F1
ncgrind: help: this screen's keys, every screen's, the commands
Keys of the function table (table)
EOF
	screen_rows '1p;22p;24p' closed-q after-q closed-Esc closed-help
	expect_out <<'EOF'
== closed-q
ncgrind: spec-extended.callgrind
func2
1/3  sort: self Instructions   ? help  q quit
== after-q
ncgrind: spec-extended.callgrind
func1
2/3  sort: self Instructions   ? help  q quit
== closed-Esc
ncgrind: spec-extended.callgrind
func1
2/3  sort: self Instructions   ? help  q quit
== closed-help
ncgrind: spec-extended.callgrind
func1
2/3  sort: self Instructions   ? help  q quit
EOF
}

@test "help: a list like the others: End, PgUp, Space, G, / and n; lines wrap, not cut" {
	# the last line of the help is the end of the last setting's help
	# (substitute-path); End puts the cursor there. / finds the flame's zoom on the flame's help, n the
	# next match. At 40 columns the text column moves to 16 (two fifths of the
	# width) and a long help wraps under it.
	browse_ok "$FIX/spec/spec-extended.callgrind" <<'EOF'
?
End
:save-screen end
g Space
:save-screen space
G
:save-screen G
q F ?
/ "zoom out" Enter
:save-screen found
n
:save-screen next
Esc
:resize 40x12
?
:save-screen narrow
EOF
	screen_rows '23p' end G
	expect_out <<'EOF'
== end
                                 500M; the oldest go first)
== G
                                 500M; the oldest go first)
EOF
	# Space pages down: the cursor on the first line of the second page (23)
	screen_rows '24p' space
	grep -q '^23/' "$OUT"
	screen_rows '24p' found next
	grep -A1 '== found' "$OUT" | tail -1 | grep -q '^7/.* 1 of 2 matches'
	grep -A1 '== next' "$OUT" | tail -1 | grep -q '^8/.* 2 of 2 matches'
	sed -i 's|^1/[0-9]*  q, Esc|1/N  q, Esc|' "$BATS_TEST_TMPDIR/narrow"
	expect_screen narrow <<'EOF'
ncgrind: help: this screen's keys, ever…
Keys of the flame graph (flame)
  Up, k         to the parent frame
  Down, j       to the largest child
                frame
  Right, l      to the next frame of the
                row
  Left, h       to the previous frame of
                the row
  Enter         zoom in: the frame as
                wide as the screen
1/N  q, Esc, ?: close  / search  PgDn…
EOF
}

# ---------------------------------------------------------------- narrow terminals

@test "narrow: 40x10 drops the percentages, cuts the title and status lines" {
	# 40 columns: with percentages the name would get 40 - (2 * (4+1+6+2) + 5+2) = 7
	# columns, fewer than 16: they go; exact numbers then leave 40 - 19 = 21.
	# 10 rows: 4 table rows. Lines longer than 40 columns are cut.
	browse_ok "$FIX/spec/spec-extended.callgrind" --size=40x10 <<'EOF'
:save-screen narrow
EOF
	expect_screen narrow <<'EOF'
ncgrind: spec-extended.callgrind
Events: [Instructions]   Total Instruct…
Incl  Self  Calls  Function
 700   700      5  func2
 400   100      1  func1
 820    20      0  main

func2
called 5 times  file: file2.c  object:
1/3  sort: self Instructions   ? help  …
EOF
}

@test "narrow: 40x10, no line wider than 40 columns, no control byte, whatever the keys" {
	local f s n=0
	for f in "$FIX/spec/spec-extended.callgrind" "$B/pages.callgrind" "$B/escapes.callgrind" \
		"$B/longname.callgrind" "$B/units.callgrind" "$B/units5.callgrind" \
		"$FIX/edge/edge-event-longnames-inherited.callgrind" \
		"$FIX/oracle/threads-sep.t02.callgrind" "$FIX/edge/edge-odd-names.callgrind"; do
		browse_ok "$f" --size=40x10 <<'EOF'
:save-screen s1
G u > >
:save-screen s2
% Tab i j j
:save-screen s3
/ "a very long pattern that does not fit the status line"
:save-screen s4
Enter
:save-screen s5
x ?
:save-screen s6
j j j j j j j j j j j j j j j j j j j j j j j j j
:save-screen s7
EOF
		for s in s1 s2 s3 s4 s5 s6 s7; do
			assert_clean "$s" 40 10
			n=$((n + 1))
		done
	done
	[ "$n" -eq 63 ]
}

@test "narrow: tiny screens (1x1, 10x3, 20x5) do not break" {
	local size s
	for size in 1x1 10x3 20x5 3x200; do
		browse_ok "$B/pages.callgrind" --size="$size" <<'EOF'
:save-screen t1
G PgUp j u % Tab / "f1" Enter n ?
:save-screen t2
q x
:save-screen t3
EOF
		for s in t1 t2 t3; do
			assert_clean "$s" "${size%x*}" "${size#*x}"
		done
	done
	# pages.callgrind at 20x5: no detail lines below 10 rows, 1 table row (5 - 3 heads
	# - 1 status). Percentages, exact numbers (100,000: 7 wide) and the calls give
	# way: costs 5 wide (4,350), 20 - 2 * (5 + 2) = 6 columns for the name (the head
	# "Function" cut to 6). j: f02.
	browse_ok "$B/pages.callgrind" --size=20x5 <<'EOF'
j
:save-screen five
EOF
	expect_screen five <<'EOF'
ncgrind: pages.call…
Events: [Ir]   Tota…
 Incl   Self  Funct…
4,350  4,350  f02
2/40  sort: self Ir
EOF
}

@test "narrow: short units keep numbers under 10,000 whole (4,450, not 4,45)" {
	# pages.callgrind at 40x10: "100,000" (7 wide) leaves no room for the name: short
	# units (100K, 4 wide). Numbers under 10,000 stay exact in short units (4,450 is
	# 5 wide): the cost columns must be as wide as the widest number they show, not
	# the total's, or 4,450 is cut to "4,45", a wrong number.
	# Costs 5 wide: 40 - (2 * (5 + 2) + 5 + 2) = 19 columns for the name.
	browse_ok "$B/pages.callgrind" --size=40x10 <<'EOF'
:save-screen narrow
EOF
	expect_screen narrow <<'EOF'
ncgrind: pages.callgrind
Events: [Ir]   Total Ir: 100,000   Part…
 Incl   Self  Calls  Function
4,450  4,450      0  f01
4,350  4,350      0  f02
4,250  4,250      0  f03
4,150  4,150      0  f04
f01
called 0 times  file: pages.c  object:
1/40  sort: self Ir   ? help  q quit
EOF
}

# ---------------------------------------------------------------- units, percentages

@test "units: U switches to short units (1.2G) and back, % hides and shows percentages" {
	# units.callgrind, total 1,236,235,240 (13 wide), short 1.2G:
	#   v1234567890 1.2G (1234567890 / 1236235240 = 99.87%), v999500 1.0M (0.08%),
	#   v555555 556K (0.04%), v99950 100K (0.01%), v12345 12.3K (0.00%)
	# Short units: the cost columns as wide as 12.3K (5).
	browse_ok "$B/units.callgrind" <<'EOF'
:save-screen exact
U
:save-screen short
%
:save-screen short-nopct
U
:save-screen exact-nopct
%
:save-screen exact-again
EOF
	screen_rows '2,8p;24p' exact short short-nopct exact-nopct exact-again
	expect_out <<'EOF'
== exact
Events: [Ir]   Total Ir: 1,236,235,240   Parts: 1
         Incl      %           Self      %  Calls  Function
1,234,567,890 99.87%  1,234,567,890 99.87%      0  v1234567890
      999,500  0.08%        999,500  0.08%      0  v999500
      555,555  0.04%        555,555  0.04%      0  v555555
       99,950  0.01%         99,950  0.01%      0  v99950
       12,345  0.00%         12,345  0.00%      0  v12345
1/5  sort: self Ir   ? help  q quit
== short
Events: [Ir]   Total Ir: 1.2G   Parts: 1
 Incl      %   Self      %  Calls  Function
 1.2G 99.87%   1.2G 99.87%      0  v1234567890
 1.0M  0.08%   1.0M  0.08%      0  v999500
 556K  0.04%   556K  0.04%      0  v555555
 100K  0.01%   100K  0.01%      0  v99950
12.3K  0.00%  12.3K  0.00%      0  v12345
1/5  sort: self Ir   ? help  q quit
== short-nopct
Events: [Ir]   Total Ir: 1.2G   Parts: 1
 Incl   Self  Calls  Function
 1.2G   1.2G      0  v1234567890
 1.0M   1.0M      0  v999500
 556K   556K      0  v555555
 100K   100K      0  v99950
12.3K  12.3K      0  v12345
1/5  sort: self Ir   ? help  q quit
== exact-nopct
Events: [Ir]   Total Ir: 1,236,235,240   Parts: 1
         Incl           Self  Calls  Function
1,234,567,890  1,234,567,890      0  v1234567890
      999,500        999,500      0  v999500
      555,555        555,555      0  v555555
       99,950         99,950      0  v99950
       12,345         12,345      0  v12345
1/5  sort: self Ir   ? help  q quit
== exact-again
Events: [Ir]   Total Ir: 1,236,235,240   Parts: 1
         Incl      %           Self      %  Calls  Function
1,234,567,890 99.87%  1,234,567,890 99.87%      0  v1234567890
      999,500  0.08%        999,500  0.08%      0  v999500
      555,555  0.04%        555,555  0.04%      0  v555555
       99,950  0.01%         99,950  0.01%      0  v99950
       12,345  0.00%         12,345  0.00%      0  v12345
1/5  sort: self Ir   ? help  q quit
EOF
}

@test "units: short forms wider than the total's are shown whole (98.8K, 10.0K, 9,999)" {
	# units5.callgrind: total 2,118,764, short 2.1M (4 wide); v2000000 2.0M (94.39%),
	# v98765 98.8K (4.66%), v10000 10.0K (0.47%), v9999 9,999 (exact under 10,000,
	# 0.47%). The cost columns must take the widest (5), not the total's width:
	# "98.8" for 98,765 would be a wrong number.
	browse_ok "$B/units5.callgrind" <<'EOF'
U
:save-screen short
EOF
	screen_rows '2,7p' short
	expect_out <<'EOF'
== short
Events: [Ir]   Total Ir: 2.1M   Parts: 1
 Incl      %   Self      %  Calls  Function
 2.0M 94.39%   2.0M 94.39%      0  v2000000
98.8K  4.66%  98.8K  4.66%      0  v98765
10.0K  0.47%  10.0K  0.47%      0  v10000
9,999  0.47%  9,999  0.47%      0  v9999
EOF
}

# ---------------------------------------------------------------- names

@test "names: control characters, escape sequences, C1 and invalid UTF-8 are shown escaped" {
	# escapes.callgrind (bytes in its comments), by self cost (total 1,500):
	#   500 (33.33%) red ESC [31m x 0x01 DEL   -> red\x1b[31mx\x01\x7f
	#   400 (26.67%) tab TAB name              -> tab\x09name
	#   300 (20.00%) bad 0xff 0xfe and 0xc3 (  -> bad\xff\xfeand\xc3(
	#   200 (13.33%) csi U+009B 2J             -> csi\u009b2J
	#   100 ( 6.67%) grüße_数据 (UTF-8)        -> as it is, 10 columns
	# cmd: ./prog ESC ]0;pwned BEL --x, fl=src/ ESC [2Jclear.c, ob=/lib/ BEL bell.so
	browse_ok "$B/escapes.callgrind" <<'EOF'
:save-screen esc
G
:save-screen esc-last
EOF
	assert_clean esc 80 24
	assert_clean esc-last 80 24
	expect_screen esc <<'EOF'
ncgrind: escapes.callgrind  cmd: ./prog \x1b]0;pwned\x07 --x
Events: [Ir]   Total Ir: 1,500   Parts: 1
 Incl      %   Self      %  Calls  Function
  500 33.33%    500 33.33%      0  red\x1b[31mx\x01\x7f
  400 26.67%    400 26.67%      0  tab\x09name
  300 20.00%    300 20.00%      0  bad\xff\xfeand\xc3(
  200 13.33%    200 13.33%      0  csi\u009b2J
  100  6.67%    100  6.67%      0  grüße_数据













red\x1b[31mx\x01\x7f
called 0 times  file: src/\x1b[2Jclear.c  object: /lib/\x07bell.so
1/5  sort: self Ir   ? help  q quit
EOF
	screen_rows '22,24p' esc-last
	expect_out <<'EOF'
== esc-last
grüße_数据
called 0 times  file: src/\x1b[2Jclear.c  object: /lib/\x07bell.so
5/5  sort: self Ir   ? help  q quit
EOF
	# one rule for every output: the text report spells the bytes as the screen
	# does (before: ^[ and ^A on the screens, \x1b and \x01 in the reports)
	"$NCGRIND" --dump=functions "$B/escapes.callgrind" >"$BATS_TEST_TMPDIR/report"
	assert_grep 'red\x1b[31mx\x01\x7f' "$BATS_TEST_TMPDIR/report"
	assert_grep 'src/\x1b[2Jclear.c' "$BATS_TEST_TMPDIR/report"
}

@test "names: wide UTF-8 characters take two columns (the File column stays aligned)" {
	# 120x11: 5 table rows; the file column at 120 - (120 - 60) / 3 = 100. grüße_数据
	# is 10 columns (the CJK characters 2 each), 15 bytes: the file starts at column
	# 100 on every row, so every row is 100 + 18 (src/\x1b[2Jclear.c) columns wide.
	browse_ok "$B/escapes.callgrind" --size=120x11 <<'EOF'
:save-screen wide
EOF
	assert_clean wide 120 11
	screen_rows '3,8p' wide
	expect_out <<'EOF'
== wide
 Incl      %   Self      %  Calls  Function                                                         File
  500 33.33%    500 33.33%      0  red\x1b[31mx\x01\x7f                                             src/\x1b[2Jclear.c
  400 26.67%    400 26.67%      0  tab\x09name                                                      src/\x1b[2Jclear.c
  300 20.00%    300 20.00%      0  bad\xff\xfeand\xc3(                                              src/\x1b[2Jclear.c
  200 13.33%    200 13.33%      0  csi\u009b2J                                                      src/\x1b[2Jclear.c
  100  6.67%    100  6.67%      0  grüße_数据                                                       src/\x1b[2Jclear.c
EOF
	sed -n '4,8p' "$BATS_TEST_TMPDIR/wide" | while IFS= read -r line; do
		printf '%s\n' "$line" | wc -L
	done >"$OUT"
	expect_out <<'EOF'
118
118
118
118
118
EOF
}

@test "names: a long C++ name is shortened in the table, whole on the detail line, > < scroll it" {
	# longname.callgrind: main (self 100) calls the template function once (900).
	# Total 1,000: 900 = 90.00%, 100 = 10.00%. The name is 349 characters:
	#   std::vector<std::pair<int, std::basic_string<char> >, std::allocator<...
	# The table has 80 - (2 * (5+1+6+2) + 5+2) = 45 columns for it: template
	# arguments become <…> (85 columns: still too long), then the parameters (…):
	#   std::vector<…>::_M_realloc_insert<…>(…)   (39 columns)
	# The detail line shows its first 79 characters and ">" (more on the right);
	# > scrolls by half the width (40 columns): "<", characters 40..117, ">"; again:
	# 80..157. It stops where the end of the name fills the line: 349 - (80 - 2) =
	# 271, so six more give 120, 160, 200, 240, 271, 271: "<" and 271..348 (no ">").
	# < scrolls back 40: 231..309 and ">". < at the start does nothing.
	browse_ok "$B/longname.callgrind" <<'EOF'
:save-screen s0
>
:save-screen s40
>
:save-screen s80
> > > > > >
:save-screen s320
<
:save-screen s280
< < < < < < <
:save-screen back
<
:save-screen back-more
EOF
	screen_rows '4,5p;22,23p' s0
	expect_out <<'EOF'
== s0
  900 90.00%    900 90.00%      1  std::vector<…>::_M_realloc_insert<…>(…)
1,000 100.0%    100 10.00%      0  main
std::vector<std::pair<int, std::basic_string<char> >, std::allocator<std::pair<>
called once  file: vec.cc  object:
EOF
	screen_rows '22p' s40 s80 s320 s280 back back-more
	expect_out <<'EOF'
== s40
<ring<char> >, std::allocator<std::pair<int, std::basic_string<char> > > >::_M_>
== s80
<nt, std::basic_string<char> > > >::_M_realloc_insert<std::pair<int, std::basic>
== s320
<nt, std::basic_string<char> > > >, std::pair<int, std::basic_string<char> >&&)
== s280
<string<char> >*, std::vector<std::pair<int, std::basic_string<char> > > >, std>
== back
std::vector<std::pair<int, std::basic_string<char> >, std::allocator<std::pair<>
== back-more
std::vector<std::pair<int, std::basic_string<char> >, std::allocator<std::pair<>
EOF
	# the table rows do not move when the name scrolls
	screen_rows '4,5p' s320
	expect_out <<'EOF'
== s320
  900 90.00%    900 90.00%      1  std::vector<…>::_M_realloc_insert<…>(…)
1,000 100.0%    100 10.00%      0  main
EOF
}

@test "names: a long name keeps its own name on a narrow screen" {
	# 40x10: the name gets 40 - (2 * (5 + 2) + 5 + 2) = 19 columns; even
	# "std::vector<…>::_M_realloc_insert<…>(…)" (39) is too long, and so is its
	# own name after the last "::", "_M_realloc_insert<…>(…)" (23): "…" for the
	# qualifiers, then of the 18 columns left the own name's start "_M_r" (4),
	# "…", its parameters "(…)" (3) and its end in the 10 left, "_insert<…>".
	browse_ok "$B/longname.callgrind" --size=40x10 <<'EOF'
:save-screen narrow
EOF
	screen_rows '3,5p;8p' narrow
	expect_out <<'EOF'
== narrow
 Incl   Self  Calls  Function
  900    900      1  …_M_r…_insert<…>(…)
1,000    100      0  main
std::vector<std::pair<int, std::basic_s>
EOF
}

@test "names: the detail line shows the newly selected function's name after > scrolled" {
	# > scrolls the template name 40 columns; j selects main. The detail line must
	# show the selected function's name, "main" (4 columns): not "<" and nothing,
	# the scroll of a longer name.
	browse_ok "$B/longname.callgrind" <<'EOF'
>
j
:save-screen main
k
:save-screen back
EOF
	screen_rows '22p;24p' main
	expect_out <<'EOF'
== main
main
2/2  sort: self Ir   ? help  q quit
EOF
}

@test "names: the function of cost lines before any fn= is (unknown), on the detail line too" {
	# malformed/cost-before-fn.callgrind: 10 Ir before any fn= (an error: exit 1),
	# main 20 in a.c. Total 30: main 66.67%, (unknown) 33.33%. The table calls the
	# unnamed function "(unknown)" (as the text report does); so does its detail line.
	browse "$FIX/malformed/cost-before-fn.callgrind" <<'EOF'
j
:save-screen unknown
EOF
	expect_status 1
	screen_rows '4,5p;22p' unknown
	expect_out <<'EOF'
== unknown
  20 66.67%    20 66.67%      0  main
  10 33.33%    10 33.33%      0  (unknown)
(unknown)
EOF
}

# ---------------------------------------------------------------- keys, messages

@test "keys: a key without an action gives a message, the next key clears it" {
	# keys_name: a character as itself, C-x for a control character. Left on the
	# table is no key of the table's (there is no screen before it to go back
	# to): it says so. j clears the message (and moves: 2/3).
	browse_ok "$FIX/spec/spec-extended.callgrind" <<'EOF'
x
:save-screen x
Left
:save-screen Left
C-x
:save-screen C-x
j
:save-screen j
C-l
:save-screen C-l
EOF
	screen_rows '24p' x Left C-x j C-l
	expect_out <<'EOF'
== x
1/3  sort: self Instructions   no action for key x (? shows the keys)
== Left
1/3  sort: self Instructions   no action for key Left (? shows the keys)
== C-x
1/3  sort: self Instructions   no action for key C-x (? shows the keys)
== j
2/3  sort: self Instructions   ? help  q quit
== C-l
2/3  sort: self Instructions   ? help  q quit
EOF
}

@test "keys: q ends the script; a key name script mode does not know is reported" {
	# line 2: "Frob" is no key: a message on stderr naming the script and the line;
	# the keys after it still count. q quits: the rest of the script is not run.
	browse "$FIX/spec/spec-extended.callgrind" <<'EOF'
# a comment line
j Frob j
:save-screen before-q
q
:save-screen after-q
EOF
	expect_status 0
	expect_err <<'EOF'
keys:2: unknown key 'Frob'
EOF
	screen_rows '24p' before-q
	expect_out <<'EOF'
== before-q
3/3  sort: self Instructions   ? help  q quit
EOF
	[ ! -e "$BATS_TEST_TMPDIR/after-q" ]
}

# ---------------------------------------------------------------- errors

@test "errors: a profile with errors opens, the first message on the status line, exit 1" {
	# malformed/negative-cost.callgrind: lines 6 ('2 -20 3') and 7 ('3 30 -1') are
	# errors, dropped whole: main = line 5 only, Ir 10, Dr 5. The browser opens; its
	# status line gives the number of messages and the first; they are all printed
	# on stderr when the browser ends; exit 1.
	# 80 columns: position, sort and message do not fit: the message takes the line.
	browse "$FIX/malformed/negative-cost.callgrind" <<'EOF'
:save-screen errors
Tab
:save-screen Dr
EOF
	expect_status 1
	expect_err <<'EOF'
negative-cost.callgrind:6: negative cost '-20' (costs are unsigned); line ignored
negative-cost.callgrind:7: negative cost '-1' (costs are unsigned); line ignored
EOF
	expect_screen errors <<'EOF'
ncgrind: negative-cost.callgrind
Events: [Ir] Dr   Total Ir: 10   Parts: 1
Incl      %  Self      %  Calls  Function
  10 100.0%    10 100.0%      0  main

















main
called 0 times  file: a.c  object:
2 problems reading the profile: negative-cost.callgrind:6: negative cost '-20' …
EOF
	# the next key clears the message
	screen_rows '2p;4p;24p' Dr
	expect_out <<'EOF'
== Dr
Events: Ir [Dr]   Total Dr: 5   Parts: 1
   5 100.0%     5 100.0%      0  main
1/1  sort: self Dr   ? help  q quit
EOF
}

@test "errors: on a wide screen the message follows the position" {
	browse "$FIX/malformed/negative-cost.callgrind" --size=140x10 <<'EOF'
:save-screen errors
EOF
	expect_status 1
	screen_rows '10p' errors
	expect_out <<'EOF'
== errors
1/1  sort: self Ir   2 problems reading the profile: negative-cost.callgrind:6: negative cost '-20' (costs are unsigned); line ignored
EOF
}

@test "errors: a profile with no functions shows (no functions), 0/0" {
	# malformed/header-only.callgrind: a header (cmd: ./a.out), events: Ir, no body.
	browse_ok "$FIX/malformed/header-only.callgrind" --size=80x10 <<'EOF'
:save-screen none
j G / "x" Enter
:save-screen none-keys
EOF
	expect_screen none <<'EOF'
ncgrind: header-only.callgrind  cmd: ./a.out
Events: [Ir]   Total Ir: 0   Parts: 1
Incl      %  Self      %  Calls  Function
(no functions)





0/0  sort: self Ir   ? help  q quit
EOF
	screen_rows '10p' none-keys
	expect_out <<'EOF'
== none-keys
0/0  sort: self Ir   nothing here matches
EOF
}

# ---------------------------------------------------------------- script commands

@test "commands: :resize 40x10 redraws at that size, :resize 80x24 back" {
	browse_ok "$FIX/spec/spec-extended.callgrind" <<'EOF'
:resize 40x10
:save-screen small
:resize 80x24
:save-screen big
EOF
	expect_screen small <<'EOF'
ncgrind: spec-extended.callgrind
Events: [Instructions]   Total Instruct…
Incl  Self  Calls  Function
 700   700      5  func2
 400   100      1  func1
 820    20      0  main

func2
called 5 times  file: file2.c  object:
1/3  sort: self Instructions   ? help  …
EOF
	expect_screen big <<'EOF'
ncgrind: spec-extended.callgrind
Events: [Instructions]   Total Instructions: 820   Parts: 1
Incl      %  Self      %  Calls  Function
 700 85.37%   700 85.37%      5  func2
 400 48.78%   100 12.20%      1  func1
 820 100.0%    20  2.44%      0  main















func2
called 5 times  file: file2.c  object:
1/3  sort: self Instructions   ? help  q quit
EOF
}

@test "commands: :resize keeps the selected function on the screen" {
	# pages.callgrind: G selects f40 (f23..f40 shown). 80x10: 4 table rows, f37..f40.
	# Back to 80x24: 18 rows, the table fills them: f23..f40. Then g and 80x10: f01..f04.
	browse_ok "$B/pages.callgrind" <<'EOF'
G
:resize 80x10
:save-screen small
:resize 80x24
:save-screen big
g
:resize 80x10
:save-screen small-top
EOF
	screen_rows '4p;7p;8p;10p' small small-top
	expect_out <<'EOF'
== small
    850  0.85%      850  0.85%      0  f37
    550  0.55%      550  0.55%      0  f40
f40
40/40  sort: self Ir   ? help  q quit
== small-top
  4,450  4.45%    4,450  4.45%      0  f01
  4,150  4.15%    4,150  4.15%      0  f04
f01
1/40  sort: self Ir   ? help  q quit
EOF
	screen_rows '4p;21p;22p;24p' big
	expect_out <<'EOF'
== big
  2,250  2.25%    2,250  2.25%      0  f23
    550  0.55%      550  0.55%      0  f40
f40
40/40  sort: self Ir   ? help  q quit
EOF
}

@test "commands: an unknown :command, a bad :resize, an unwritable :save-screen" {
	# each gives a message on the status line; the screen keeps its size (80x24).
	# The file not written is said again on stderr at the end, and fails the run;
	# with its reason, the message takes the status line alone.
	browse "$FIX/spec/spec-extended.callgrind" <<'EOF'
:frobnicate now
:save-screen unknown
:resize 2x
:save-screen bad-resize
:save-screen no/such/dir/screen
:save-screen bad-save
EOF
	expect_status 1
	expect_err <<'EOF'
ncgrind: cannot write 'no/such/dir/screen': No such file or directory
EOF
	assert_clean bad-resize 80 24
	screen_rows '24p' unknown bad-save
	expect_out <<'EOF'
== unknown
unknown command 'frobnicate' (help shows the commands)
== bad-save
cannot write 'no/such/dir/screen': No such file or directory
EOF
	# the message of the bad size is not pinned; it names :resize
	grep -q "resize" <(sed -n 24p "$BATS_TEST_TMPDIR/bad-resize")
}

@test "keys: q closes the screen and goes back, on the first screen quits; Q quits from anywhere; Esc goes back" {
	# spec-extended: the table, then func2's callers and callees (Enter), then its
	# tree (t). q closes the tree: the callers and callees again, and the tree is
	# gone from the history (] has nothing ahead). Esc goes back to the table.
	browse_ok "$FIX/spec/spec-extended.callgrind" <<'EOF2'
Enter t
:save-screen tree
q
:save-screen closed
]
:save-screen ahead
Esc
:save-screen table
Enter t Q
:save-screen never
EOF2
	head -1 "$BATS_TEST_TMPDIR/tree" | grep -q '^ncgrind: call tree'
	head -1 "$BATS_TEST_TMPDIR/closed" | grep -q '^ncgrind: callers and callees'
	tail -1 "$BATS_TEST_TMPDIR/ahead" | grep -q "this is the last screen"
	head -1 "$BATS_TEST_TMPDIR/table" | grep -q '^ncgrind'
	grep -q '^1/3 ' "$BATS_TEST_TMPDIR/table"
	# Q quit at once: the rest of the script did not run
	[ ! -e "$BATS_TEST_TMPDIR/never" ]
	# q on the table quits as before
	browse_ok "$FIX/spec/spec-extended.callgrind" <<'EOF2'
q
:save-screen after
EOF2
	[ ! -e "$BATS_TEST_TMPDIR/after" ]
	# Q quits from the help too (the monkey in tmux found it closed nothing there,
	# and the q that followed only took the help away)
	browse_ok "$FIX/spec/spec-extended.callgrind" <<'EOF2'
Enter t ?
:save-screen help
Q
:save-screen after-help
EOF2
	grep -q '^ncgrind: help' "$BATS_TEST_TMPDIR/help"
	[ ! -e "$BATS_TEST_TMPDIR/after-help" ]
}

@test "search: / n N on every screen, over what the rows show, with the match count" {
	# spec-extended: main calls func1 and func2; func1 calls func2.
	# main's callers and callees: the headings, then func1 (3/4) and func2 (4/4):
	# "func" matches both; the cursor's row counts: 1 of 2; n: 2 of 2; n: round.
	# T: main, func1, func2 (under func1), func2 (under main): "func2" from main:
	# row 3, 1 of 2; n: row 4; n: round to 3; N: round back to 4.
	browse_ok "$FIX/spec/spec-extended.callgrind" <<'EOF2'
:goto ^main$
Enter / "func" Enter
:save-screen d1
n
:save-screen d2
n
:save-screen d3
T / "func2" Enter
:save-screen t1
n
:save-screen t2
n
:save-screen t3
N
:save-screen t4
EOF2
	for s in d1 d2 d3 t1 t2 t3 t4; do echo "$s $(tail -n 1 "$BATS_TEST_TMPDIR/$s")"; done >"$OUT"
	expect_out <<'EOF2'
d1 3/4   1 of 2 matches
d2 4/4   2 of 2 matches
d3 3/4   1 of 2 matches (search wrapped)
t1 3/4   1 of 2 matches
t2 4/4   2 of 2 matches
t3 3/4   1 of 2 matches (search wrapped)
t4 4/4   2 of 2 matches (search wrapped)
EOF2
	# the source of main (wordfreq.c, found beside the profile): 13 lines and the
	# call row "=> count_words" under line 11; "count" is on line 3, line 11 and
	# the call row. The cursor starts on line 10 (the hottest): line 11 is the
	# second match; n: the call row (row 12 of 14), the third.
	cp "$FIX/beside/wordfreq.c" "$BATS_TEST_TMPDIR/"
	browse_ok "$FIX/beside/wordfreq.callgrind" <<'EOF2'
:goto ^main$
v / "count" Enter
:save-screen v1
n
:save-screen v2
n
:save-screen v3
EOF2
	for s in v1 v2 v3; do echo "$s $(tail -n 1 "$BATS_TEST_TMPDIR/$s")"; done >"$OUT"
	expect_out <<'EOF2'
v1 11/14   2 of 3 matches
v2 12/14   3 of 3 matches
v3 3/14   1 of 3 matches (search wrapped)
EOF2
}

@test "callers and callees: i, c, a sort them (who calls most often), %, U; Tab sorts them by the new event" {
	# callers of func2 in spec-extended: main 3 calls for 400, func1 2 calls for
	# 300. By cost (the default) main first; c: by the number of calls, main (3)
	# first; c again: reversed, func1 first; a: by name, func1 < main. Rows: the
	# two headings and the two callers (func2 calls nothing): 4.
	browse_ok "$FIX/spec/spec-extended.callgrind" <<'EOF2'
:goto ^func2$
Enter
:save-screen cost
c
:save-screen calls
c
:save-screen calls-rev
a
:save-screen name
% U
:save-screen pct
s
:save-screen self
EOF2
	screen_rows '6,7p;24p' cost calls calls-rev name
	expect_out <<'EOF2'
== cost
  400  48.78%  57.14%         3  main  file1.c:16
  300  36.59%  42.86%         2  func1  file1.c:51
2/4  Enter: open  t/r: tree  Backspace: back
== calls
  400  48.78%  57.14%         3  main  file1.c:16
  300  36.59%  42.86%         2  func1  file1.c:51
2/4   callers and callees by the number of calls
== calls-rev
  300  36.59%  42.86%         2  func1  file1.c:51
  400  48.78%  57.14%         3  main  file1.c:16
2/4   callers and callees by the number of calls (reversed)
== name
  300  36.59%  42.86%         2  func1  file1.c:51
  400  48.78%  57.14%         3  main  file1.c:16
2/4   callers and callees by name
EOF2
	# % hides the percentages, U shortens the numbers (they are short already)
	sed -n '6p' "$BATS_TEST_TMPDIR/pct" | grep -Eq '^ +300 +2  func1  file1\.c:51$'
	# no self cost to sort by: s is not one of the callers' keys (help does not list it)
	tail -n 1 "$BATS_TEST_TMPDIR/self" | grep -q 'no action for key s'
	# Tab on the callers and callees (two events: the rows sort by the new one).
	# two-events: leaf is called by a (Ir 10, Dr 90) and b (Ir 20, Dr 5).
	mkdir "$BATS_TEST_TMPDIR/src"
	printf '%s\n' '# callgrind format' 'events: Ir Dr' 'fn=a' '1 1 1' 'cfn=leaf' 'calls=1 1' '1 10 90' \
		'fn=b' '1 1 1' 'cfn=leaf' 'calls=1 1' '1 20 5' 'fn=leaf' '1 30 95' >"$BATS_TEST_TMPDIR/src/two.callgrind"
	browse_ok "$BATS_TEST_TMPDIR/src/two.callgrind" <<'EOF2'
:goto ^leaf$
Enter
:save-screen ir
Tab
:save-screen dr
EOF2
	echo $(sed -n '6,7p' "$BATS_TEST_TMPDIR/ir" | awk '{ print $NF }') \
		$(sed -n '6,7p' "$BATS_TEST_TMPDIR/dr" | awk '{ print $NF }') >"$OUT"
	expect_out <<<'b a a b'
}

@test "feedback: Tab on a one-event profile and :threshold on the table say what they did" {
	browse_ok "$FIX/spec/spec-extended.callgrind" <<'EOF2'
Tab
:save-screen tab
:threshold 5
:save-screen thr
T
:save-screen tree
EOF2
	tail -n 1 "$BATS_TEST_TMPDIR/tab" | grep -q '   the profile has one event$'
	tail -n 1 "$BATS_TEST_TMPDIR/thr" | grep -q 'threshold 5%: the call trees fold smaller branches$'
	head -1 "$BATS_TEST_TMPDIR/tree" | grep -q 'threshold 5%$'
}

@test "search: a match past the end of a long name scrolls the name's line to it" {
	# at 60 columns the name's line (row 10) shows 58 columns of the 95 of this
	# name and a '>'. "needle" (columns 47-53) is in sight: no scroll. "run"
	# (columns 68-71) is not: the line scrolls to a quarter screen before it
	# (68 - 15 = 53), at most to where the name's end shows (95 - 58 = 37): 37,
	# shown as '<' and the name from column 37 on ("double>>, ...").
	printf '%s\n' '# callgrind format' 'events: Ir' 'fl=a.c' \
		'fn=ns::Holder<std::map<int, std::vector<double>>, needle_deep_inside>::run(int, char const*) const' \
		'1 100' 'fn=main' '1 10' >"$BATS_TEST_TMPDIR/long.callgrind"
	mkdir "$BATS_TEST_TMPDIR/p"
	mv "$BATS_TEST_TMPDIR/long.callgrind" "$BATS_TEST_TMPDIR/p/"
	browse_ok "$BATS_TEST_TMPDIR/p/long.callgrind" --size=60x12 <<'EOF2'
/ "needle" Enter
:save-screen needle
/ "run" Enter
:save-screen runs
EOF2
	sed -n '10p' "$BATS_TEST_TMPDIR/needle" >"$OUT"
	sed -n '10p' "$BATS_TEST_TMPDIR/runs" >>"$OUT"
	expect_out <<'EOF2'
ns::Holder<std::map<int, std::vector<double>>, needle_deep_>
<double>>, needle_deep_inside>::run(int, char const*) const
EOF2
}

# keys_on_screen SCREEN DIR: every key of ./scopes on SCREEN (a name of the test
# below), each in a run of its own from DIR; prints what is wrong, one line a key,
# and leaves in DIR/n how many keys it tried
keys_on_screen() {
	local screen=$1 dir=$2 setup key n=0 holds status
	case $screen in
	table) setup='' ;;
	callers) setup='Enter' ;;
	tree) setup='t' ;;
	source) setup='v' ;;
	parts) setup='P' ;;
	diff) setup=':diff wordfreq.callgrind' ;;
	esac
	for key in $(cut -f1 scopes | sort -u); do
		case $key in q | Q | : | / | '?' | F1) continue ;; esac
		rm -f "$dir/after"
		printf '%s\n' ':goto ^main$' "$setup" "$key" ":save-screen $dir/after" >"$dir/keys"
		# (set -e holds here too: the status kept, not the function ended)
		status=0
		"$NCGRIND" --script="$dir/keys" --size=100x30 wordfreq.callgrind >"$dir/output" 2>&1 || status=$?
		[ "$status" -eq 0 ] || { echo "$screen, $key: exit $status: $(cat "$dir/output")"; continue; }
		[ -s "$dir/after" ] || { echo "$screen, $key: the browser ended"; continue; }
		holds=$(awk -F'\t' -v k="$key" -v s="$screen" '$1 == k && ($2 == "generic" || $2 == s) { print "yes"; exit }' scopes)
		status=$(tail -n 1 "$dir/after")
		if [ "$holds" = yes ]; then
			case $status in *"no action for key"*) echo "$screen, $key: $status" ;; esac
		else
			case $status in *"no action for key"*) ;; *) echo "$screen, $key: holds nowhere here, but: $status" ;; esac
		fi
		n=$((n + 1))
	done
	echo "$n" >"$dir/n"
}

@test "keys: every key on every kind of screen: none crashes or quits, each does something where its keymap or the generic one binds it, and says so where neither does" {
	# The keys and their scopes come from --list-keys (every keymap): a key holds
	# on a screen when the screen's own keymap or the generic one binds it. For
	# each screen (the table, main's callers and callees, main's tree, main's
	# source found beside the profile, the parts, the diff) and each key (but q,
	# Q, :, /, ? and F1, which quit or open a line or the help), the browser goes
	# on (the screen after it is saved) and its status line says "no action for
	# key" exactly when the key holds nowhere on that screen. The screens run at
	# once, a core each (under ASan a run's start is most of its time).
	cp "$FIX/beside/wordfreq.callgrind" "$FIX/beside/wordfreq.c" "$BATS_TEST_TMPDIR/"
	cd "$BATS_TEST_TMPDIR"
	"$NCGRIND" --list-keys | awk -F'\t' '{ n = split($2, k, /, /); for (i = 1; i <= n; i++) print k[i] "\t" $1 }' >scopes
	[ "$(wc -l <scopes)" -gt 100 ]
	# shellcheck source=test/tools/each-file.sh
	source "$TOOLS/each-file.sh"
	each_file "$BATS_TEST_TMPDIR" keys_on_screen table callers tree source parts diff >wrong
	if [ -s wrong ]; then
		cat wrong
		return 1
	fi
	# every screen tried its keys
	[ "$(cat each/*/n | wc -l)" -eq 6 ]
	[ "$(cat each/*/n | awk '{ n += $1 } END { print n }')" -gt 180 ]
}

@test ":events: the events with their totals and formulas; Enter shows one everywhere; a screen of its own kind" {
	# edge-event-longnames-inherited (worked out in the events test above): totals
	# Ir 3,500, Dr 1,200, I1mr 15, D1mr 50, Sum 4,700, L1m 65, CEst 4,150; the
	# inherited ones with their formulas. / "l1" finds I1mr's long name first (L1
	# Instr. Fetch Miss), from the cursor on Ir; Enter on Dr shows Dr on the
	# table, which is sorted by it and says so; q on the list goes back.
	browse_ok "$FIX/edge/edge-event-longnames-inherited.callgrind" --size=90x20 <<'EOF2'
:events
:save-screen list
/ "l1" Enter
:save-screen search
g j Enter
:save-screen dr
:events
q
:save-screen back
EOF2
	sed -n '4,11p' "$BATS_TEST_TMPDIR/list" >"$OUT"
	expect_out <<'EOF2'
  Event                     Total  Long name, or formula
* Ir                        3,500  Instruction Fetches
  Dr                        1,200  Data Read Accesses
  I1mr                         15  L1 Instr. Fetch Miss
  D1mr                         50  L1 Data Read Miss
  Sum                       4,700  = Ir + Dr
  L1m                          65  = I1mr + D1mr
  CEst                      4,150  = Ir + 10 I1mr + 10 * D1mr
EOF2
	tail -n 1 "$BATS_TEST_TMPDIR/search" | grep -q '^3/7   1 of 3 matches$'
	sed -n '2p' "$BATS_TEST_TMPDIR/dr" | grep -q '^Events: Ir \[Dr\] '
	tail -n 1 "$BATS_TEST_TMPDIR/dr" | grep -q 'sort: self Dr   event Dr$'
	sed -n '2p' "$BATS_TEST_TMPDIR/back" | grep -q '^Events: Ir \[Dr\] '
}

@test ":sort sorts the screen in front, or says it cannot; :top is the table's" {
	# spec-extended: main calls func1 once (400) and func2 three times (400).
	# :sort calls on main's callers and callees puts func2 (3 calls) first, :sort
	# name func1 first; the table behind keeps its sort (self: func2, func1,
	# main). :sort self there is refused (calls have no self cost), as :top.
	browse_ok "$FIX/spec/spec-extended.callgrind" <<'EOF'
:goto ^main$
Enter
:sort calls
:save-screen calls
:sort name
:save-screen name
:sort self
:save-screen self
:top 1
:save-screen top
q
:save-screen table
:events
:sort name
:save-screen events
EOF
	screen_rows '7,8p' calls name
	expect_out <<'EOF'
== calls
  400  48.78%  48.78%         3  func2  file1.c:16
  400  48.78%  48.78%         1  func1  file1.c:16
== name
  400  48.78%  48.78%         1  func1  file1.c:16
  400  48.78%  48.78%         3  func2  file1.c:16
EOF
	screen_rows '24p' self top events
	expect_out <<'EOF'
== self
3/4   this screen does not sort by self (? shows its keys)
== top
3/4   top N is for the function table
== events
1/1   this screen does not sort by name (? shows its keys)
EOF
	screen_rows '4,6p;24p' table
	expect_out <<'EOF'
== table
 700 85.37%   700 85.37%      5  func2
 400 48.78%   100 12.20%      1  func1
 820 100.0%    20  2.44%      0  main
3/3  sort: self Instructions   ? help  q quit
EOF
}

@test "the table keeps its cursor's function through Tab, @ and filters" {
	# A profile made here: events Ir Dr; a: Ir 30 Dr 1, b: Ir 20 Dr 5, c: Ir 10
	# Dr 9. By self Ir: a b c; by Dr: c b a. The cursor on a stays on a: row 1
	# by Ir, row 3 by Dr; @ and a filter that keeps a (and b) leave it on a.
	mkdir "$BATS_TEST_TMPDIR/p"
	printf '%s\n' '# callgrind format' 'events: Ir Dr' 'fl=t.c' 'fn=a' '1 30 1' 'fn=b' '2 20 5' \
		'fn=c' '3 10 9' >"$BATS_TEST_TMPDIR/p/t.callgrind"
	browse_ok "$BATS_TEST_TMPDIR/p/t.callgrind" <<'EOF'
g
Tab
:save-screen a-dr
S-Tab
:save-screen a-ir
@ C-l
:save-screen a-cycles
:filter ^[ab]$
:save-screen a-filter
:filter
:save-screen a-unfiltered
EOF
	screen_rows '22p;24p' a-dr a-ir a-cycles a-filter a-unfiltered
	expect_out <<'EOF'
== a-dr
a
3/3  sort: self Dr   ? help  q quit
== a-ir
a
1/3  sort: self Ir   ? help  q quit
== a-cycles
a
1/3  sort: self Ir   ? help  q quit
== a-filter
a
1/2  sort: self Ir   ? help  q quit
== a-unfiltered
a
1/3  sort: self Ir   ? help  q quit
EOF
}

@test "browser: counts agree in number (1 entry point, 2 entry points, 1 function, 1 frame matches)" {
	# spec-extended: main calls func1 and func2, func1 calls func2, one object
	# (none named), one event. By hand: one entry point (main); ^main$ is one
	# frame of the flame graph, ^func three (func1 and func2 under main, func2
	# under func1); the filter main keeps one function, func two; the object's
	# group holds all three functions.
	browse_ok "$FIX/spec/spec-extended.callgrind" <<'EOF2'
T
:save-screen tree
q
F
/ "^main$" Enter
:save-screen main
/ "^func" Enter
:save-screen func
q
O
:save-screen groups
Enter
:save-screen members
q
q
:filter main
:save-screen one
:filter
:filter func
:save-screen two
:filter
:events
:save-screen events
EOF2
	{
		sed -n 2p tree
		tail -n 1 main
		tail -n 1 func
		tail -n 1 groups
		sed -n 2p members
		head -n 1 one
		head -n 1 two
		sed -n 2p events
	} >"$OUT"
	expect_out <<'EOF2'
1 entry point: what no call from outside covers (main, threads)
1 frame matches: 820, 100.0% of the total
3 frames match: 800, 97.56% of the total
1/1   1 group by object (O: the next kind)
3 functions, by self cost
ncgrind: …-extended.callgrind  [filter main: 1 function, 2.44% of the self cost]
ncgrind: …xtended.callgrind  [filter func: 2 functions, 97.56% of the self cost]
1 event of spec-extended.callgrind; the one shown is marked *
EOF2
	# edge-jumps: loop and target, neither called: two entry points
	browse_ok "$FIX/edge/edge-jumps.callgrind" <<'EOF2'
T
:save-screen tree2
EOF2
	sed -n 2p tree2 >"$OUT"
	expect_out <<'EOF2'
2 entry points: what no call from outside covers (main, threads)
EOF2
}

@test "parts: a single part, a single file and a single one counting read in the singular" {
	# spec-extended is one part of one file, and it counts
	browse_ok "$FIX/spec/spec-extended.callgrind" <<'EOF'
P
:save-screen parts
EOF
	sed -n 2p "$BATS_TEST_TMPDIR/parts" >"$OUT"
	expect_out <<'EOF'
1 part in 1 file; 1 counts (marked *)
EOF
}
