#!/usr/bin/env bats
# The flame graph screen (issue 18): F from the table (the entry points) or a
# function; a frame as wide as its cost on the path; Up/Down parent and child,
# Left/Right along a row, Enter zooms in, Backspace out, / marks the frames that
# match and says their share, r the callers upward, :write the folded stacks
# shown. The widths' property test is treecheck's (treeprop.bats). The fixture:
# the cache-simulation run of recur.c (see derived.bats).

load test_helper

CS="$BATS_TEST_DIRNAME/fixtures/events/cachesim.callgrind"

# commas N: 4473209 -> 4,473,209
commas() {
	echo "$1" | sed -e ':a' -e 's/\B[0-9]\{3\}\>/,&/' -e 'ta'
}

@test "flame: F, Down to phase_parity, Enter zooms, / marks, Backspace out, at 80 and 200 columns" {
	local size
	cd "$BATS_TEST_TMPDIR"
	# phase_parity's cost on its path and is_even's, from the tree report
	ncg --dump=tree --format=tsv --threshold=0.01 "$CS"
	awk -F'\t' '$2 == "phase_parity" { pp = $5 } $2 == "is_even" && $1 == 6 { ie = $5 }
		END { print pp, ie }' "$OUT" >want
	read -r pp ie <want
	for size in 80x24 200x40; do
		printf '%s\n' 'F' ':save-screen f0' 'Down' 'Down' 'Down' 'Down' 'Down' ':save-screen f1' \
			'Enter' ':save-screen f2' '/ "^is_" Enter' ':save-screen f3' 'Backspace' \
			':save-screen f4' >keys
		"$NCGRIND" --script=keys --size=$size "$CS"
		assert_grep 'ncgrind: flame graph, from the entry points, Ir' f0
		# the first row spans the width: the entry point, all of the total
		sed -n 3p f0 | grep -q '^0x000000000001ab70'
		tail -1 f1 | grep -q "^phase_parity  $(commas "$pp")  49.79% of the total"
		assert_grep 'zoomed into phase_parity' f2
		sed -n 3p f2 | grep -q '^phase_parity'
		# is_even and what it calls match; counted once: is_even's cost
		assert_grep "4 frames match: $(commas "$ie"), 49.76% of the total" f3
		# out to where the zoom in was: the whole flame, its entry point on top
		# (one Backspace undoes one Enter, however deep the frame was)
		refute_grep 'zoomed into' f4
		sed -n 3p f4 | grep -q '^0x000000000001ab70'
		tail -1 f4 | grep -q "^phase_parity "
	done
}

@test "flame: r shows the callers upward; :write writes the folded stacks of what is shown" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' 'F' 'Down' 'Down' 'Down' 'Down' 'Down' 'Right' ':save-screen r0' 'r' \
		':save-screen r1' 'q' 'Left' 'Enter' ':write w.txt' >keys
	"$NCGRIND" --script=keys --size=100x24 "$CS"
	tail -1 r0 | grep -q '^phase_sort '
	assert_grep 'ncgrind: flame graph, callers, upward, Ir' r1
	sed -n '3,5p' r1 | cut -c1-12 >"$OUT"
	expect_out <<'EOF'
phase_sort
main
(below main)
EOF
	# zoomed into phase_parity: its lines are the folded report's with the same path
	ncg --dump=folded --threshold=0.01 "$CS"
	grep "^0x000000000001ab70;(below main);__libc_start_main@@GLIBC_2.34;(below main);main;phase_parity;is_even;is_odd;<cycle 1>;is_even'2 " \
		"$OUT" | awk '{ print $NF }' >want
	grep "^phase_parity;is_even;is_odd;<cycle 1>;is_even'2 " w.txt | awk '{ print $NF }' >got
	diff -u want got
}

@test "flame: :write of a flame deeper than 256 rows keeps every frame of each stack" {
	cd "$BATS_TEST_TMPDIR"
	awk 'BEGIN { print "events: Ir"; print "fl=c.c"; for (i = 0; i < 300; i++) {
		printf "fn=f%d\n1 1\n", i
		if (i < 299) printf "cfn=f%d\ncalls=1 1\n1 %d\n", i + 1, 300 - i - 1 } }' >chain.callgrind
	printf 'F\n:write w.txt\n' >keys
	"$NCGRIND" --script=keys --size=100x300 chain.callgrind
	# every row is laid out, not only the screen's; f_k costs 300 - k of 300, so
	# 800 eighths wide it spans 800 - round(800 k / 300) eighths: f297 8 (a
	# cell, so its callee is laid out), f298 5 (under a cell: not expanded).
	# The deepest stack: f0 .. f298, 299 frames
	awk '{ n = split($1, a, ";"); if (a[1] != "f0") bad++ } END { print n; exit bad > 0 }' w.txt >"$OUT"
	expect_out <<'EOF'
299
EOF
}

# chain FILE: f000 .. f299, each calling the next, names 156 characters long
# (fNNN_ and 151 x); each f_k costs 1 (f299 the rest) of a total of 10,000,000,
# so f_k costs 10,000,000 - k: f200 99.998% of the root, f299 99.997%
chain() {
	awk 'BEGIN { x = "_"; for (k = 0; k < 151; k++) x = x "x"; print "events: Ir"; print "fl=c.c"
		for (i = 0; i < 300; i++) {
			printf "fn=f%03d%s\n", i, x
			if (i < 299) printf "1 1\ncfn=f%03d%s\ncalls=1 1\n1 %d\n", i + 1, x, 10000000 - i - 1
			else printf "1 %d\n", 10000000 - 299 } }' >"$1"
}

# frame_rows SCREEN: the first names (fNNN) of the 21 rows of frames of a
# 120x24 screen, then the cursor's frame and the rows the status line says
frame_rows() {
	sed -n '3,23p' "$1" | cut -c1-4 | tr '\n' ' '
	tail -1 "$1" | sed -e 's/^\(f[0-9]*\)\(_\|…\).*  \(rows .*\)$/: \1 \3/'
}

@test "flame: a chain 300 deep scrolls: Down, PgDn, End, Up, Home keep the cursor's frame in view" {
	local k want
	cd "$BATS_TEST_TMPDIR"
	chain chain.callgrind
	{
		echo F
		echo ':save-screen s0'
		for k in $(seq 30); do echo Down; done
		echo ':save-screen s1'
		printf '%s\n' Home PgDn ':save-screen s2' End ':save-screen s3' Up ':save-screen s4' \
			Home ':save-screen s5'
	} >keys
	"$NCGRIND" --script=keys --size=120x24 chain.callgrind
	# 24 rows: the title, the keys, 21 rows of frames, the status. The view
	# keeps two rows below and above the cursor's, and no empty row below the
	# deepest (row 300). F: rows 1-21, f000 selected; 30 Downs: f030, with
	# two rows below it (f031, f032) the last: rows 13-33; Home, PgDn: the
	# cursor a page down, f021, with two rows above it: rows 20-40; End: the
	# deepest frame, f299, at the bottom: rows 280-300; Up: f298, the view
	# stays; Home: f000, rows 1-21.
	# (TOP SCREEN CURSOR: the first row shown, 0-based, and the cursor's frame)
	for k in "0 s0 0" "12 s1 30" "19 s2 21" "279 s3 299" "279 s4 298" "0 s5 0"; do
		set -- $k
		want="$(seq "$1" "$(($1 + 20))" | awk '{ printf "f%03d ", $1 }'): f$(printf %03d "$3") rows $(($1 + 1))-$(($1 + 21))/300"
		[ "$(frame_rows "$2")" = "$want" ] || {
			echo "$2: $(frame_rows "$2")"
			echo "expected: $want"
			return 1
		}
	done
}

@test "flame: End goes to the deepest frame, Down to the largest child" {
	local s
	cd "$BATS_TEST_TMPDIR"
	# main (1) calls a (60, a leaf) and b (39); b calls b1 (38), b1 b2 (37),
	# b2 b3 (36), b3 b4 (35, a leaf): six rows, the deepest b4's, under b
	printf '%s\n' 'events: Ir' 'fl=c.c' 'fn=main' '1 1' 'cfn=a' 'calls=1 1' '1 60' 'cfn=b' \
		'calls=1 1' '1 39' 'fn=a' '1 60' 'fn=b' '1 1' 'cfn=b1' 'calls=1 1' '1 38' 'fn=b1' \
		'1 1' 'cfn=b2' 'calls=1 1' '1 37' 'fn=b2' '1 1' 'cfn=b3' 'calls=1 1' '1 36' 'fn=b3' \
		'1 1' 'cfn=b4' 'calls=1 1' '1 35' 'fn=b4' '1 35' >ab.callgrind
	printf '%s\n' F Down ':save-screen d1' End ':save-screen d2' Home End ':save-screen d3' \
		Home ':save-screen d4' >keys
	"$NCGRIND" --script=keys --size=80x8 ab.callgrind
	# 8 rows: 5 of frames, one row kept below and above the cursor's.
	# Down: a, the largest child; End from a, a leaf: a stays; Home, End: b4,
	# through b, the last of rows 2-6; Home: main, rows 1-5
	for s in d1 d2 d3 d4; do tail -1 $s | sed 's/  .*  / /'; done >"$OUT"
	expect_out <<'EOF'
a rows 1-5/6
a rows 1-5/6
b4 rows 2-6/6
main rows 1-5/6
EOF
}

@test "flame: widths down a 300-deep chain are the top's share, not less a level at a time" {
	local tc="${TREECHECK:-$BATS_TEST_DIRNAME/tools/treecheck}" s k
	cd "$BATS_TEST_TMPDIR"
	chain chain.callgrind
	printf '%s\n' F ':save-screen w0' End ':save-screen w1' >keys
	"$NCGRIND" --script=keys --size=120x24 chain.callgrind
	# at 120 columns the top is 960 eighths; f_k ends at 960 (10,000,000 - k) /
	# 10,000,000 = 960 - 0.000096 k eighths, rounded 960 for every k < 300: each
	# frame spans the 120 cells, its name cut to 119 columns (the start of its
	# own name, fNNN, a …, and its end, 114 x), then a blank (a saved screen
	# drops the blanks at the end of a row).
	# Before, a frame lost an eighth a row (f001 ended at 959 eighths, its name
	# at 118 columns, a block in the 120th cell; f200 at 760, 95 cells)
	for s in w0 w1; do
		k=$([ $s = w0 ] && echo 0 || echo 279)
		sed -n '3,23p' $s | sed 's/…/~/' >"$OUT"
		seq $k $((k + 20)) | awk '{ x = ""; for (i = 0; i < 114; i++) x = x "x"
			printf "f%03d~%s\n", $1, x }' >want
		diff -u want "$OUT"
	done
	# and every frame of every flame of the chain, at 1, 80, 120 and 200
	# columns, zoomed too: both ends within half an eighth of the costs'
	[ -x "$tc" ] || skip "test/tools/treecheck is not built (make test/tools/treecheck)"
	run "$tc" chain.callgrind
	[ "$status" -eq 0 ] || { echo "$output" | head -5; return 1; }
}

@test "flame: Backspace zooms out the way Enter came in, one zoom at a time" {
	# two zooms (phase_parity, then is_even under it): the first Backspace goes
	# back to phase_parity zoomed, the second to the whole flame, the third closes
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' 'F' 'Down' 'Down' 'Down' 'Down' 'Down' 'Enter' 'Down' 'Enter' ':save-screen z2' \
		'Backspace' ':save-screen z1' 'Backspace' ':save-screen z0' 'Backspace' \
		':save-screen table' >keys
	"$NCGRIND" --script=keys --size=100x24 "$CS"
	assert_grep 'zoomed into is_even' z2
	assert_grep 'zoomed into phase_parity' z1
	refute_grep 'zoomed into' z0
	assert_grep 'ncgrind: flame graph, from the entry points' z0
	head -1 table | grep -q '^ncgrind: .*cachesim'
}

@test "flame: :ignore takes the frames it drops out, their width left to the caller; u brings them back" {
	# report/treefilt.callgrind (see tree-filter.bats): main 810 calls work 500
	# (util 300, compute 100), logmsg 200 (fmt 150) and util 100; bg 90; total
	# 900. ignore logmsg drops logmsg and fmt: main's row below is work then
	# util, and main keeps the rest as its own (810 - 500 - 100 = 210)
	local size tf="$BATS_TEST_DIRNAME/fixtures/report/treefilt.callgrind"
	cd "$BATS_TEST_TMPDIR"
	for size in 80x24 200x40; do
		printf '%s\n' 'F' ': "ignore ^logmsg$" Enter' ':save-screen f1' ':write w1.txt' 'u' \
			':save-screen f2' ':write w2.txt' >keys
		"$NCGRIND" --script=keys --size=$size "$tf"
		# (the names of a row's frames; a frame's last part-cell is a block)
		[ "$(sed -n 4p f1 | grep -o '[a-z]\+' | paste -sd' ')" = "work util" ]
		refute_grep 'logmsg|fmt' f1
		[ "$(sed -n 4p f2 | grep -o '[a-z]\+' | paste -sd' ')" = "work logmsg util" ]
		[ "$(sed -n 5p f2 | grep -o '[a-z]\+' | paste -sd' ')" = "util compute fmt" ]
		LC_ALL=C sort w1.txt >"$OUT"
		expect_out <<'EOF2'
bg 90
main 210
main;util 100
main;work 100
main;work;compute 100
main;work;util 300
EOF2
		grep -qx 'main;logmsg;fmt 150' w2.txt
	done
}
