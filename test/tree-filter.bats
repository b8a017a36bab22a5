#!/usr/bin/env bats
# Call trees under the filters that narrow the functions (filter, focus,
# ignore): --dump=tree, --dump=folded and the browser's tree screen. A call
# to a function the filters drop is no child; what it cost stays in its
# parent, so no other row's cost changes. Worked out by hand from
# report/treefilt.callgrind:
#   main self 10, calls work 1x (500), logmsg 2x (200), util 1x (100): incl 810
#   work self 100, calls util 3x (300), compute 1x (100): incl 500
#   logmsg self 50, calls fmt 2x (150): incl 200
#   util self 400, compute self 100, fmt self 150
#   bg self 90, called by nothing: the second entry point. Total 900.
# Every function spends its inclusive cost, so a node costs its call, and the
# top-down tree's %root is of the total (900).

load test_helper

TF="$BATS_TEST_DIRNAME/fixtures/report/treefilt.callgrind"

# rows: the depth, function, calls, cost, %root and %parent of a tsv tree
rows() {
	cut -f1,2,4,5,6,7 "$OUT" | tail -n +2 >"$OUT.f"
	mv "$OUT.f" "$OUT"
}

@test "tree filters: ignore drops a function and what only it reaches, from tree and folded" {
	# ignore logmsg: logmsg goes, and fmt, which only logmsg calls. The rest
	# costs what it did: main's children add up to 600 of its 810
	ncg --dump=tree --format=tsv --command='ignore ^logmsg$' "$TF"
	expect_status 0
	rows
	expect_tsv <<'EOF2'
0 | main | 0 | 810 | 90.00 | 90.00
1 | work | 1 | 500 | 55.56 | 61.73
2 | util | 3 | 300 | 33.33 | 60.00
2 | compute | 1 | 100 | 11.11 | 20.00
1 | util | 1 | 100 | 11.11 | 12.35
0 | bg | 0 | 90 | 10.00 | 10.00
EOF2
	# folded: main's own is 810 - 500 - 100 = 210, logmsg's 200 with it
	ncg --dump=folded --command='ignore ^logmsg$' "$TF"
	expect_status 0
	expect_out <<'EOF2'
main 210
main;work 100
main;work;util 300
main;work;compute 100
main;util 100
bg 90
EOF2
}

@test "tree filters: focus keeps the functions on paths through the match; entry points off them go" {
	# focus work: main (its caller), util and compute (its callees). bg and
	# logmsg are on no path through work. util stays where main calls it
	# directly too: the filters choose functions, not paths
	ncg --dump=tree --format=tsv --command='focus ^work$' "$TF"
	expect_status 0
	rows
	expect_tsv <<'EOF2'
0 | main | 0 | 810 | 90.00 | 90.00
1 | work | 1 | 500 | 55.56 | 61.73
2 | util | 3 | 300 | 33.33 | 60.00
2 | compute | 1 | 100 | 11.11 | 20.00
1 | util | 1 | 100 | 11.11 | 12.35
EOF2
	ncg --dump=folded --command='focus ^work$' "$TF"
	expect_out <<'EOF2'
main 210
main;work 100
main;work;util 300
main;work;compute 100
main;util 100
EOF2
}

@test "tree filters: a name filter grows the tree through kept functions only; hide walks through" {
	# filter main|work|fmt: work under main, nothing under work (util and
	# compute dropped); fmt is kept but only logmsg, dropped, calls it: the
	# tree is cut short there. main's own: 810 - 500 = 310
	ncg --dump=tree --format=tsv --command='filter ^(main|work|fmt)$' "$TF"
	expect_status 0
	rows
	expect_tsv <<'EOF2'
0 | main | 0 | 810 | 90.00 | 90.00
1 | work | 1 | 500 | 55.56 | 61.73
EOF2
	ncg --dump=folded --command='filter ^(main|work|fmt)$' "$TF"
	expect_out <<'EOF2'
main 310
main;work 500
EOF2
	# hide logmsg as well: its frame is walked through, and fmt, kept, joins
	# main at logmsg's share of the call (200 / 200) x 150 = 150, 18.52% of 810
	ncg --dump=tree --format=tsv --command='filter ^(main|fmt)$' --command='hide ^logmsg$' "$TF"
	expect_status 0
	rows
	expect_tsv <<'EOF2'
0 | main | 0 | 810 | 90.00 | 90.00
1 | fmt | 2 | 150 | 16.67 | 18.52
EOF2
}

@test "tree filters: a tree rooted at a dropped function shows it; callers upward are narrowed too" {
	# asked for by --root, logmsg is shown, at its inclusive cost, without fmt
	ncg --dump=tree --format=tsv --root='^logmsg$' --command='ignore ^logmsg$' "$TF"
	expect_status 0
	rows
	expect_tsv <<'EOF2'
0 | logmsg | 0 | 200 | 100.00 | 100.00
EOF2
	# ignore work: util's callers are main (100) and work (300); work goes:
	# main, 100 of util's 400 (25.00%)
	ncg --dump=tree --format=tsv --root='^util$' --inverted --command='ignore ^work$' "$TF"
	expect_status 0
	rows
	expect_tsv <<'EOF2'
0 | util | 0 | 400 | 100.00 | 100.00
1 | main | 1 | 100 | 25.00 | 25.00
EOF2
}

@test "tree filters: ignore phase_parity takes its subtree out of the report, the rest stays as it was" {
	# recur-default (recur.c): main calls phase_parity once; it and what it
	# reaches (is_even, is_odd and their cycle) are reached through nothing else
	ncg --dump=tree --format=tsv --threshold=1 "$FIX/oracle/recur-default.callgrind"
	cp "$OUT" "$BATS_TEST_TMPDIR/all"
	ncg --dump=tree --format=tsv --threshold=1 --command='ignore phase_parity' \
		"$FIX/oracle/recur-default.callgrind"
	expect_status 0
	refute_grep $'\t(phase_parity|is_even|is_odd)(\'2)?\t' "$OUT"
	# what is left is the tree without phase_parity's rows, row for row
	awk -F'\t' 'skip && $1 > depth { next } { skip = 0 }
		$2 == "phase_parity" { skip = 1; depth = $1; next } { print }' \
		"$BATS_TEST_TMPDIR/all" >"$BATS_TEST_TMPDIR/want"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/want")" -lt "$(wc -l <"$BATS_TEST_TMPDIR/all")" ]
	diff -u "$BATS_TEST_TMPDIR/want" "$OUT"
}

@test "tree filters: the browser's tree under :ignore, built again after u" {
	local keys="$BATS_TEST_TMPDIR/keys"
	printf '%s\n' T E ": \"ignore ^logmsg\$\" Enter" ":save-screen $BATS_TEST_TMPDIR/ignored" \
		u ":save-screen $BATS_TEST_TMPDIR/undone" ": \"focus ^work\$\" Enter" \
		":save-screen $BATS_TEST_TMPDIR/focus" >"$keys"
	"$NCGRIND" --script="$keys" "$TF"
	sed -n '5,10p' "$BATS_TEST_TMPDIR/ignored" | sed 's/ *$//' >"$OUT"
	expect_out <<'EOF2'
  810  90.00%  90.00%            - main
  500  55.56%  61.73%         1    - work
  300  33.33%  60.00%         3        util
  100  11.11%  20.00%         1        compute
  100  11.11%  12.35%         1      util
   90  10.00%  10.00%              bg
EOF2
	# undone: logmsg is back, closed (it was not there when the open rows were kept)
	sed -n '5,11p' "$BATS_TEST_TMPDIR/undone" | sed 's/ *$//' >"$OUT"
	expect_out <<'EOF2'
  810  90.00%  90.00%            - main
  500  55.56%  61.73%         1    - work
  300  33.33%  60.00%         3        util
  100  11.11%  20.00%         1        compute
  200  22.22%  24.69%         2    + logmsg
  100  11.11%  12.35%         1      util
   90  10.00%  10.00%              bg
EOF2
	# focus work: one entry point is left, bg is not
	sed -n 2p "$BATS_TEST_TMPDIR/focus" | grep -q '^1 entry point: '
	refute_grep ' bg *$' "$BATS_TEST_TMPDIR/focus"
}

@test "tree filters: a node whose callees are all dropped loses its + once opened" {
	# filter main|work: work calls only util and compute, both dropped. E opens
	# everything: work has nothing to show, and says so with no mark
	local keys="$BATS_TEST_TMPDIR/keys"
	printf '%s\n' ": \"filter ^(main|work)\$\" Enter" T E ":save-screen $BATS_TEST_TMPDIR/t" >"$keys"
	"$NCGRIND" --script="$keys" "$TF"
	sed -n '5,7p' "$BATS_TEST_TMPDIR/t" | sed 's/ *$//' >"$OUT"
	expect_out <<'EOF2'
  810  90.00%  90.00%            - main
  500  55.56%  61.73%         1      work

EOF2
}

@test "tree filters: the text head says which filters made a tree or a list of calls; json too" {
	local f="$FIX/oracle/recur-default.callgrind"
	ncg --dump=tree --command='ignore phase_parity' "$f"
	expect_status 0
	sed -n 2p "$OUT" | grep -qx 'Filters:     ignore phase_parity'
	ncg --dump=callees --function='^main$' --command='ignore phase_parity' "$f"
	expect_status 0
	head -1 "$OUT" | grep -qx 'Filters:     ignore phase_parity'
	ncg --dump=tree --format=json --command='ignore phase_parity' "$f"
	python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["filters"] == "ignore phase_parity"' "$OUT"
	ncg --dump=callers --function='^main$' --format=json "$f"
	python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["filters"] is None' "$OUT"
	# no filter: no line
	ncg --dump=tree "$f"
	refute_grep '^Filters:' "$OUT"
}
