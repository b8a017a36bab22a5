#!/usr/bin/env bats
# run-suite: alone (its tests wait on what a tmux pane shows: test/tools/run-suite)
# The monkey on the real terminal in tmux, the scripts it once failed on (some of
# them in tmux), and the monkey's own failures; monkey.bats says what it does and
# which settings the environment gives.

load test_helper
load monkey_helper

@test "monkey: the real terminal in tmux, in colour, on a few fixtures" {
	unset NO_COLOR
	monkey --tmux --seed $((MONKEY_SEED + 2000)) --runs "$MONKEY_TMUX_RUNS" --keys 30 \
		"$FIX/example.callgrind" "$FIX/recursion/ring.callgrind" \
		"$FIX/browser/longname.callgrind" "$FIX/spec/spec-extended.callgrind"
}

@test "monkey: the key scripts it once failed on (test/fixtures/monkey/*.keys) now pass" {
	local keys
	unset NO_COLOR
	mapfile -t keys < <(LC_ALL=C ls "$FIX"/monkey/*.keys)
	[ ${#keys[@]} -gt 0 ] || { echo "no key script in $FIX/monkey"; return 1; }
	monkey --replay "${keys[@]}"
}

@test "monkey: it reports a crash, a hang, a sanitizer report, a broken terminal" {
	# a stand-in for ncgrind (its binding table is the real one) that fails on
	# purpose: the monkey must see each failure, and keep the script that found it
	local fake="$BATS_TEST_TMPDIR/ncgrind" how out
	cat >"$fake" <<EOF
#!/bin/sh
case \$1 in --list-keys) exec "$NCGRIND" --list-keys ;; esac
case \$FAKE in
segv) kill -SEGV \$\$ ;;
hang) exec sleep 60 ;;
asan) echo '==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x1' >&2; exit 1 ;;
oom) echo 'ncgrind: out of memory (allocating 9 bytes)' >&2; exit 1 ;;
screen) printf '\033[?1049h\033[?25l'; sleep 0.2; exit 0 ;;
esac
exit 0
EOF
	chmod +x "$fake"
	for how in segv hang asan oom ok; do
		out="$BATS_TEST_TMPDIR/$how.out"
		FAKE=$how "$TOOLS/monkey" -q --ncgrind "$fake" --timeout 2 --keys 5 --out "$BATS_TEST_TMPDIR/$how" \
			"$FIX/spec/spec-simple.callgrind" >"$out" 2>&1 && status=0 || status=$?
		case $how in
		ok) expect_status 0 ;;
		*) expect_status 1 ;;
		esac
	done
	assert_grep 'FAIL spec-simple.callgrind: killed by signal 11 (SEGV)' "$BATS_TEST_TMPDIR/segv.out"
	assert_grep 'FAIL spec-simple.callgrind: hang (> 2 s, killed)' "$BATS_TEST_TMPDIR/hang.out"
	assert_grep 'sanitizer: ==1==ERROR: AddressSanitizer: heap-use-after-free' "$BATS_TEST_TMPDIR/asan.out"
	assert_grep 'out of memory' "$BATS_TEST_TMPDIR/oom.out"
	assert_grep '1 runs, 0 failed' "$BATS_TEST_TMPDIR/ok.out"
	# the failing script is kept, and says how to replay it
	assert_grep '# monkey: killed by signal 11 (SEGV)' "$BATS_TEST_TMPDIR/segv/fail-1-0.keys"
	assert_grep '# profile: ' "$BATS_TEST_TMPDIR/segv/fail-1-0.keys"
	assert_grep '--replay' "$BATS_TEST_TMPDIR/segv/fail-1-0.keys"
	# the same script again: the same lines (the seed alone draws them)
	FAKE=segv "$TOOLS/monkey" -q --ncgrind "$fake" --timeout 2 --keys 5 --out "$BATS_TEST_TMPDIR/again" \
		"$FIX/spec/spec-simple.callgrind" >/dev/null 2>&1 || true
	diff -u "$BATS_TEST_TMPDIR/segv/fail-1-0.keys" "$BATS_TEST_TMPDIR/again/fail-1-0.keys" |
		grep '^[-+][^-+#]' >"$OUT" || true
	refute_grep . "$OUT"
	# in tmux: a program that leaves the alternate screen on and the cursor off
	FAKE=screen "$TOOLS/monkey" -q --tmux --ncgrind "$fake" --timeout 3 --keys 2 \
		--out "$BATS_TEST_TMPDIR/screen" "$FIX/spec/spec-simple.callgrind" >"$OUT" 2>&1 && status=0 || status=$?
	expect_status 1
	assert_grep 'terminal not given back (alternate screen 1, cursor shown 0' "$OUT"
}
