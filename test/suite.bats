#!/usr/bin/env bats
# The suite's own rules (see test_helper.bash): a test whose input or tool is
# missing says `skip` with the reason (test/tools/run-suite counts a skip as a
# failure, but for the optional shared corpus's), it never passes without
# checking anything; and the tools built for
# the tests are run through the variables that `make check` and `make asan`
# set, so that the sanitizer build tests its own.

load test_helper

@test "suite: no test passes early with return 0: it skips, saying why" {
	# before: the shared corpus's monkey test and the JSON test without python3
	# ended with `return 0`, passing without a check
	grep -nE '^[[:space:]]*return 0[[:space:]]*$' "$BATS_TEST_DIRNAME"/*.bats >"$OUT" || true
	refute_grep . "$OUT"
}

@test "suite: the probe is run as \$PROBE, never by its path in test/tools" {
	# before: fuzz-found.bats ran test/tools/probe, the build without sanitizers,
	# under make asan too
	grep -niE 'tools/probe' "$BATS_TEST_DIRNAME"/*.bats | grep -v '/suite\.bats:' |
		grep -vF 'PROBE="${PROBE:-$BATS_TEST_DIRNAME/tools/probe}"' >"$OUT" || true
	refute_grep . "$OUT"
}

@test "suite: run-suite fails on a skip, but for the optional shared corpus's" {
	mkdir "$BATS_TEST_TMPDIR/s"
	printf '%s\n' '@test "a" { true; }' '@test "b" { skip "no ../shared/corpus here"; }' \
		'@test "c" { skip "python3 is needed"; }' >"$BATS_TEST_TMPDIR/s/t.bats"
	"$BATS_TEST_DIRNAME/tools/run-suite" "$BATS_TEST_TMPDIR/s/t.bats" >"$OUT" || true
	tail -n 1 "$OUT" | grep -qx '1 passed, 1 failed'
	printf '%s\n' '@test "a" { true; }' '@test "b" { skip "no ../shared/corpus here"; }' \
		>"$BATS_TEST_TMPDIR/s/t.bats"
	"$BATS_TEST_DIRNAME/tools/run-suite" "$BATS_TEST_TMPDIR/s/t.bats" >"$OUT"
	tail -n 1 "$OUT" | grep -qx '1 passed, 0 failed'
}
