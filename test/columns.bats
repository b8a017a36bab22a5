#!/usr/bin/env bats
# Several event columns (issue 17): :set columns LIST and --events in the browser
# show the other events' self costs beside the current event's inclusive and
# self costs in the table; narrow screens drop the extra columns first, the last
# first. The fixture: a --cache-sim=yes --branch-sim=yes run (see derived.bats).

load test_helper

CS="$BATS_TEST_DIRNAME/fixtures/events/cachesim.callgrind"

@test "columns: :set columns Ir,D1mr,CEst at 200 columns: each function's values as the report gives them" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' ':set columns Ir,D1mr,CEst' ':save-screen w0' >keys
	"$NCGRIND" --script=keys --size=200x12 "$CS"
	sed -n 3p w0 | grep -qE '^ +Incl +% +Self +% +D1mr +CEst +Calls  Function'
	# every row's D1mr and CEst self: those of --dump=functions (same names)
	ncg --dump=functions --format=tsv --events=D1mr,CEst "$CS"
	awk -F'\t' 'NR > 1 { print $1 "|" $5 "|" $6 }' "$OUT" | LC_ALL=C sort >"$BATS_TEST_TMPDIR/want"
	sed -n '4,9p' w0 | awk '{ gsub(/,/, ""); print $8 "|" $5 "|" $6 }' | LC_ALL=C sort \
		>"$BATS_TEST_TMPDIR/got"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/got")" -eq 6 ]
	LC_ALL=C comm -13 "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got" >"$OUT"
	refute_grep . "$OUT"
}

@test "columns: narrower, the last extra column goes first, before the percentages; Tab keeps them; none" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' ':set columns Ir,D1mr,CEst' ':resize 95x12' ':save-screen n0' ':resize 80x12' \
		':save-screen n80' 'Tab' ':resize 200x12' ':save-screen n1' ':set columns none' \
		':save-screen n2' >keys
	"$NCGRIND" --script=keys --size=200x12 "$CS"
	# 95 columns: D1mr stays, CEst goes; the name keeps twice its least room (32)
	sed -n 3p n0 >"$OUT"
	assert_grep 'D1mr' "$OUT"
	refute_grep 'CEst' "$OUT"
	# 80: both go, the percentages stay
	sed -n 3p n80 >"$OUT"
	refute_grep 'D1mr|CEst' "$OUT"
	assert_grep '%' "$OUT"
	# Tab: Dr current, Ir, D1mr and CEst beside it
	sed -n 3p n1 | grep -qE 'Self +% +Ir +D1mr +CEst'
	sed -n 3p n2 >"$OUT"
	refute_grep 'D1mr|CEst' "$OUT"
	assert_grep 'one event: the current one' n2
}

@test "columns: :set columns says which columns have no room at the screen's width" {
	# the same widths as the test above: at 95 columns CEst has no room, at 80
	# neither D1mr nor CEst; at 200 all three fit. Before, a column with no room
	# was left out silently, as if the setting were ignored.
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' ':resize 95x12' ':set columns Ir,D1mr,CEst' ':save-screen m95' ':resize 80x12' \
		':set columns Ir,D1mr,CEst' ':save-screen m80' ':resize 200x12' \
		':set columns Ir,D1mr,CEst' ':save-screen m200' >keys
	"$NCGRIND" --script=keys --size=200x12 "$CS"
	for s in m95 m80 m200; do
		tail -n 1 $s | sed 's/^.*sort: self Ir   //'
	done >"$OUT"
	expect_out <<'EOF'
no room at 95 columns for CEst (% or U make room): 2 of 3 events shown
no room at 80 columns for D1mr, CEst (% or U make room): 1 of 3 events shown
3 events side by side (narrow screens drop the last first)
EOF
}

@test "columns: --events in the browser: side by side, the first current; an unknown one is said" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' ':save-screen e0' >keys
	"$NCGRIND" --script=keys --size=200x12 --events=D1mr,Ir,CEst "$CS"
	assert_grep 'Events: Ir Dr Dw I1mr [D1mr]' e0
	sed -n 3p e0 | grep -qE 'Self +% +Ir +CEst'
	"$NCGRIND" --script=keys --size=200x12 --events=Nope "$CS"
	assert_grep "unknown event 'Nope'" e0
}

@test "columns: callers and callees and the source show the other events too, as the reports" {
	cd "$BATS_TEST_TMPDIR"
	# is_even'2 (the first row by self Ir): its callers and callees, then its source
	printf '%s\n' ':set columns Ir,D1mr,CEst' 'Enter' ':save-screen d0' 'q' 'v' ':save-screen d1' >keys
	"$NCGRIND" --script=keys --size=160x14 "$CS"
	sed -n 4p d0 | grep -qE 'Cost +%total +%func +Calls +D1mr +CEst +Function'
	# the call is_odd'2 -> is_even'2 in D1mr and CEst, as --dump=calls has it
	ncg --dump=calls --format=tsv --events=D1mr,CEst "$CS"
	awk -F'\t' '$1 == "is_odd'"'"'2" && $3 == "is_even'"'"'2" { print $6, $7 }' "$OUT" \
		>"$BATS_TEST_TMPDIR/want"
	grep "is_odd'2 <cycle 1> \[recursive\]" d0 | head -1 | awk '{ gsub(/,/, ""); print $5, $6 }' \
		>"$BATS_TEST_TMPDIR/got"
	diff -u "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
	# is_even'2's line 13: D1mr none, CEst as --dump=source gives it (derived per line)
	assert_grep 'ncgrind: annotated source' d1
	grep -qE '^ *2,232,804 +24\.85% +\. +2,234,844 +13  ' d1
	ncg --dump=source --function="^is_even'2\$" --events=CEst "$CS"
	assert_grep " 2,234,844 (21.04%)  NOINL int is_even" "$OUT"
}

@test "columns in trees: each node's other events are that event's own tree, path by path" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' ':set columns Ir,Dr,CEst' 'T' 'E' ':write tw.txt' >keys
	"$NCGRIND" --script=keys --size=150x24 "$CS"
	sed -n 4p tw.txt | grep -qE 'Incl +%root +%parent +Calls +Dr +CEst +Function'
	# the root: the totals (CEst by hand in derived.bats: 10,621,176)
	grep -qE '^8,984,626 +100\.0% +100\.0% +1,687,757 +10,621,176  - 0x000000000001ab70$' tw.txt
	# nodes met once in the tree: their Dr and CEst as the tree of Dr, of CEst has them
	for ev in Dr CEst; do
		ncg --dump=tree --format=tsv --events=$ev "$CS"
		awk -F'\t' '$2 == "main" || $2 == "phase_parity" || $2 == "phase_sort" || $2 == "qsort" {
			print $2, $5 }' "$OUT" | LC_ALL=C sort >"$BATS_TEST_TMPDIR/want.$ev"
	done
	awk '{ n = $NF; if (n == "main" || n == "phase_parity" || n == "phase_sort" || n == "qsort") {
		gsub(/,/, "", $0); split($0, f, " +"); print n, f[5] > "dr"; print n, f[6] > "cest" } }' tw.txt
	LC_ALL=C sort dr | diff -u "$BATS_TEST_TMPDIR/want.Dr" -
	LC_ALL=C sort cest | diff -u "$BATS_TEST_TMPDIR/want.CEst" -
}

@test "columns: in short units a value column is as wide as its widest short value, not its total's" {
	# Dr's total 1,266,177 is 1.3M in short units (4 columns), but b's 66,177 is
	# 66.2K (5): the column must hold it whole (it was cut to 66.2, a wrong value)
	mkdir "$BATS_TEST_TMPDIR/p"
	printf '%s\n' '# callgrind format' 'events: Ir Dr' 'fl=t.c' 'fn=a' '1 10000000 1200000' \
		'fn=b' '2 5000000 66177' >"$BATS_TEST_TMPDIR/p/t.callgrind"
	printf '%s\n' '%' 'U' ':set columns Ir,Dr' ':save-screen s' >"$BATS_TEST_TMPDIR/keys"
	(cd "$BATS_TEST_TMPDIR" && "$NCGRIND" --script=keys --size=80x24 p/t.callgrind)
	sed -n 3,5p "$BATS_TEST_TMPDIR/s" >"$OUT"
	grep -Eq '^ +Incl +Self +Dr +Calls  Function$' "$OUT"
	grep -Eq ' 66\.2K +0  b$' "$OUT"
	grep -Eq ' 1\.2M +0  a$' "$OUT"
}
