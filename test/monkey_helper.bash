# What monkey.bats and monkey-tmux.bats share: the settings the environment
# gives (see monkey.bats) and the monkey run that shows what failed.
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
