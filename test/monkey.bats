#!/usr/bin/env bats
# The monkey (test/tools/monkey): random keys of the binding table (--list-keys) and
# prompt commands (open, write, resize to 1x1 ... 200x60, filters, searches, tree and
# source keys, garbage edited into the ':' and '/' lines), from fixed seeds, in script
# mode on every profile of test/fixtures and of ../shared/corpus/real when it is here,
# and on the real terminal in tmux (TERM=xterm-256color, colour on) on a few fixtures.
# Every run has a memory limit (ulimit -v; an ASan build's hard_rss_limit_mb) and a
# time limit. Nothing may crash, hang, run out of memory, print a sanitizer report,
# or leave the terminal broken. What the monkey once found is replayed from
# test/fixtures/monkey/*.keys (a key script, with `# profile:` and maybe
# `# mode: tmux` lines; `{here}` in its lines is that directory).
#
# The environment sets how much: MONKEY_RUNS (runs per profile in script mode, 5;
# `make asan` asks for 4 from seeds of its own), MONKEY_SEED (the first seed, 1;
# `make asan`'s 100001), MONKEY_TMUX_RUNS (6),
# MONKEY_MEM (MB, 1024), MONKEY_TIMEOUT (seconds per run, 10); SHARED_DIR is
# ../shared (`make check` passes it). Longer runs: `make monkey SEED=N RUNS=M`.
# A failure prints the script that failed and the command that replays it.

load test_helper

MONKEY_RUNS=${MONKEY_RUNS:-5}
MONKEY_SEED=${MONKEY_SEED:-1}
MONKEY_TMUX_RUNS=${MONKEY_TMUX_RUNS:-6}
MONKEY_MEM=${MONKEY_MEM:-1024}
MONKEY_TIMEOUT=${MONKEY_TIMEOUT:-10}
SHARED_DIR=${SHARED_DIR:-$BATS_TEST_DIRNAME/../../shared}

# monkey ARGS...: run the monkey on $NCGRIND; on a failure show what failed (the
# failing scripts, the first lines of their stderr) and fail
monkey() {
	local fails="$BATS_TEST_TMPDIR/failed" f n=0 st=0
	# its work directories go under the test's own
	TMPDIR="$BATS_TEST_TMPDIR" SHARED_DIR="$SHARED_DIR" "$TOOLS/monkey" -q --ncgrind "$NCGRIND" --mem "$MONKEY_MEM" \
		--timeout "$MONKEY_TIMEOUT" --out "$fails" "$@" >"$OUT" 2>&1 || st=$?
	if [ "$st" != 0 ]; then
		cat "$OUT"
		for f in "$fails"/*.keys; do
			[ -f "$f" ] || continue
			n=$((n + 1))
			[ $n -le 3 ] || break
			echo "--- $f:"
			cat "$f"
			if [ -s "${f%.keys}.err" ]; then
				echo "--- its stderr:"
				head -25 "${f%.keys}.err"
			fi
		done
		return 1
	fi
}

# fixture_profiles: every profile of test/fixtures
fixture_profiles() {
	find "$FIX" -type f \( -name '*.callgrind' -o -name '*.cachegrind' \
		-o -name 'cachegrind.out.*' -o -name 'callgrind.out.*' \) ! -name '*.txt' | LC_ALL=C sort
}

@test "monkey: script mode, every fixture profile, fixed seeds" {
	local profiles n
	mapfile -t profiles < <(fixture_profiles)
	n=${#profiles[@]}
	# (the find must not come back empty, nor miss whole directories)
	[ "$n" -gt 80 ] || { echo "only $n fixture profiles found"; return 1; }
	monkey -j 2 --seed "$MONKEY_SEED" --runs $((n * MONKEY_RUNS)) "${profiles[@]}"
}

@test "monkey: script mode, every profile of the shared corpus (when present)" {
	local profiles n
	[ -d "$SHARED_DIR/corpus/real" ] || skip "no $SHARED_DIR/corpus/real here (the shared corpus)"
	mapfile -t profiles < <(find "$SHARED_DIR/corpus/real" -type f \( -name '*.callgrind' \
		-o -name '*.cachegrind' -o -name 'cachegrind.out.*' \) ! -name '*.txt' | LC_ALL=C sort)
	n=${#profiles[@]}
	[ "$n" -gt 0 ] || { echo "no profile in $SHARED_DIR/corpus/real"; return 1; }
	monkey -j 2 --seed $((MONKEY_SEED + 1000)) --runs $((n * MONKEY_RUNS)) "${profiles[@]}"
}

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
