#!/usr/bin/env bats
# Saturated totals (issue 28): a cost that reaches 2^64 - 1 is kept there, and the
# text reports still print it as a count. A ratio event is known by its flag, never
# by its total, so a saturated total is not mistaken for one.
#   sat.callgrind  main costs 2^64 - 1 Ir, f 5 Ir: the total saturates at 2^64 - 1

load test_helper

sat() {
	printf 'events: Ir\nfl=a.c\nfn=main\n1 18446744073709551615\nfn=f\n1 5\n' \
		>"$BATS_TEST_TMPDIR/sat.callgrind"
	cd "$BATS_TEST_TMPDIR" || return
}

@test "saturated: --dump=functions prints counts and shares, the total's overflow once" {
	sat
	ncg --dump=functions sat.callgrind
	expect_status 1
	# main is the (saturated) total itself: 100%; f's 5 of 2^64 - 1 is 0.00%
	tail -n 6 "$OUT" >"$OUT.tail"
	mv "$OUT.tail" "$OUT"
	expect_out <<'EOF2'
18,446,744,073,709,551,615 (100.0%)  PROGRAM TOTALS
--------------------------------------------------------------------------------
Ir incl                              Ir self                              calls  file:function
--------------------------------------------------------------------------------
18,446,744,073,709,551,615 (100.0%)  18,446,744,073,709,551,615 (100.0%)      0  a.c:main
                         5 ( 0.00%)                           5 ( 0.00%)      0  a.c:f
EOF2
	[ "$(grep -c 'exceeds 64 bits' "$ERR")" = 1 ]
}

@test "saturated: --dump=calls prints the total as a count" {
	sat
	ncg --dump=calls sat.callgrind
	expect_status 1
	grep 'PROGRAM TOTALS' "$OUT" >"$OUT.t"
	mv "$OUT.t" "$OUT"
	expect_out <<<'18,446,744,073,709,551,615 (100.0%)  PROGRAM TOTALS'
	[ "$(grep -c 'exceeds 64 bits' "$ERR")" = 1 ]
}
