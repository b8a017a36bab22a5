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

@test "suite: every test file that reads a tmux pane runs alone (run-suite)" {
	# a file run beside another would make the waits of its tmux tests too short
	local f bad=0
	for f in "$BATS_TEST_DIRNAME"/*.bats; do
		[ "$f" != "$BATS_TEST_FILENAME" ] || continue # (this check names them)
		grep -qE 'capture-pane|monkey --tmux' "$f" || continue
		grep -q '^# run-suite: alone' "$f" && continue
		echo "$f reads a tmux pane but has no '# run-suite: alone' line"
		bad=1
	done
	[ "$bad" = 0 ]
	# (the check must see the files it guards)
	grep -q '^# run-suite: alone' "$BATS_TEST_DIRNAME/tmux.bats"
}

@test "suite: run-suite counts the tests of files run at once, and a file stopped before its plan's end" {
	local d="$BATS_TEST_TMPDIR/suite"
	mkdir "$d"
	printf '@test "one" {\n\ttrue\n}\n@test "two" {\n\tfalse\n}\n' >"$d/a.bats"
	# the file's bats is killed in its second test: the third never runs
	printf '@test "x" {\n\ttrue\n}\n@test "y" {\n\tkill -KILL $PPID $$\n}\n@test "z" {\n\ttrue\n}\n' >"$d/b.bats"
	printf '# run-suite: alone\n@test "p" {\n\ttrue\n}\n' >"$d/c.bats"
	printf '# run-suite: first\n@test "q" {\n\ttrue\n}\n' >"$d/d.bats"
	SUITE_JOBS=2 run "$BATS_TEST_DIRNAME/tools/run-suite" "$d"
	[ "$status" -eq 1 ]
	printf '%s\n' "${lines[@]}" >"$OUT"
	# a: one of two; b: one, then its stop; c, d: one each
	[ "${lines[${#lines[@]} - 1]}" = "4 passed, 2 failed" ]
	assert_grep "not ok - $d/b.bats: ran 1 of 3 tests" "$OUT"
	# the alone file's log comes last, d's before a's (first), each with its seconds
	grep -n "^# $d/[a-d].bats$" "$OUT" | cut -d: -f2- >"$BATS_TEST_TMPDIR/order"
	[ "$(tail -n 1 "$BATS_TEST_TMPDIR/order")" = "# $d/c.bats" ]
	grep -qx "# $d/c.bats: [0-9]* s" "$OUT"
	SUITE_JOBS=1 run "$BATS_TEST_DIRNAME/tools/run-suite" "$d/d.bats" "$d/a.bats"
	printf '%s\n' "${lines[@]}" >"$OUT"
	[ "$(grep -n "^# $d/" "$OUT" | head -n 1 | cut -d: -f2-)" = "# $d/d.bats" ]
}
