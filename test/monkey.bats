#!/usr/bin/env bats
# run-suite: first (it takes long: test/tools/run-suite)
# The monkey (test/tools/monkey): random keys of the binding table (--list-keys) and
# prompt commands (open, write, resize to 1x1 ... 200x60, filters, searches, tree and
# source keys, garbage edited into the ':' and '/' lines), from fixed seeds, in script
# mode on every profile of test/fixtures and of ../shared/corpus/real when it is here,
# and (monkey-tmux.bats, which runs alone) on the real terminal in tmux
# (TERM=xterm-256color, colour on) on a few fixtures.
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
load monkey_helper

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
