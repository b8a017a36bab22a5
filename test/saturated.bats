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

# Call costs are summed in 32-bit cells until a sum needs more, then in 64
# bits (profile_edge_add): across that line, and at 64 bits, every value as
# one 64-bit sum gives it, in one pass and merged from chunks.
@test "saturated: call costs past 32 bits add up exactly; past 64 bits they are said" {
	cd "$BATS_TEST_TMPDIR"
	# main calls f twice: Ir 4,294,967,294 (the largest a 32-bit cell keeps)
	# + 3,000,000,000 = 7,294,967,294; Dr 4,294,967,295 (one more: 64 bits
	# at once) + 2 = 4,294,967,297. f's self costs are those sums; main's 1 1.
	printf '%s\n' '# callgrind format' 'events: Ir Dr' 'fl=a.c' 'fn=main' '1 1 1' \
		'cfn=f' 'calls=1 1' '1 4294967294 4294967295' 'cfn=f' 'calls=1 1' '1 3000000000 2' \
		'fn=f' '1 4294967294 4294967295' '2 3000000000 2' >big.callgrind
	local j
	for j in 1 3; do
		NCGRIND_CHUNK_SIZE=$([ "$j" = 3 ] && echo 1 || echo 0) \
			ncg --jobs=$j --dump=calls --format=tsv big.callgrind
		expect_status 0
		expect_no_err
		assert_grep "$(printf 'main\ta.c\tf\ta.c\t2\t7294967294\t4294967297\t7294967294\t4294967297\t')" "$OUT"
		ncg --jobs=$j --dump=functions --format=tsv --sort=name big.callgrind
		expect_tsv <<'EOF2'
function | file | object | calls | self:Ir | self:Dr | incl:Ir | incl:Dr
f | a.c |  | 2 | 7294967294 | 4294967297 | 7294967294 | 4294967297
main | a.c |  | 0 | 1 | 1 | 7294967295 | 4294967298
EOF2
	done
	# 2^64 - 1, twice: the sum is said, and shown as 2^64 - 1
	printf '%s\n' '# callgrind format' 'events: Ir' 'fl=a.c' 'fn=main' \
		'cfn=f' 'calls=1 1' '1 18446744073709551615' 'cfn=f' 'calls=1 1' '1 1' 'fn=f' '1 1' >sat.callgrind
	ncg --dump=calls --format=tsv sat.callgrind
	expect_status 1
	assert_grep "sat.callgrind:10: a call cost sum exceeds 64 bits; it is shown as 18446744073709551615" "$ERR"
	assert_grep "$(printf 'main\ta.c\tf\ta.c\t2\t')" "$OUT"
}
