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
		# out a level: to phase_parity's parent, main
		assert_grep 'zoomed into main' f4
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
	# 297 rows of frames (300 less the title, the zoom line and the status line)
	awk '{ n = split($1, a, ";"); if (a[1] != "f0") bad++ } END { print n; exit bad > 0 }' w.txt >"$OUT"
	expect_out <<'EOF'
297
EOF
}
