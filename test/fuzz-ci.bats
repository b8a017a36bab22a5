#!/usr/bin/env bats
# test/fuzz/ci-run, the check of CI's fuzz step (make fuzz-ci), against
# stand-ins for a libFuzzer binary: each prints what libFuzzer prints at the
# end of a run, or stops as a broken harness does.

load test_helper

CI_RUN="$BATS_TEST_DIRNAME/fuzz/ci-run"

# fake NAME BODY: a stand-in libFuzzer binary in the test's folder
fake() {
	printf '#!/usr/bin/env bash\n%s\n' "$2" >"$BATS_TEST_TMPDIR/$1"
	chmod +x "$BATS_TEST_TMPDIR/$1"
}

# the end of a run of N units that reached COV edges
done_run() {
	cat <<EOD
INFO: Seed: 42
#3	INITED cov: 500 ft: 900 corp: 3/1b exec/s: 0 rss: 30Mb
#$1	DONE   cov: $2 ft: 1000 corp: 3/1b lim: 4 exec/s: 9 rss: 30Mb
Done $1 runs in 30 second(s)
stat::number_of_executed_units: $1
stat::average_exec_per_sec:     9
EOD
}

setup() {
	mkdir -p "$BATS_TEST_TMPDIR/seeds"
	for i in 1 2 3; do echo "$i" >"$BATS_TEST_TMPDIR/seeds/$i"; done
	export FUZZ_CI_LOG="$BATS_TEST_TMPDIR/log"
}

ci_run() {
	run "$CI_RUN" t "$BATS_TEST_TMPDIR/bin" 30 600 "$BATS_TEST_TMPDIR/seeds" -max_len=9
}

@test "fuzz-ci: a run that ends well, executes its seeds and 100 more and covers enough passes" {
	fake bin "$(printf 'cat <<"EOD"\n%s\nEOD' "$(done_run 103 600)")"
	ci_run
	[ "$status" -eq 0 ]
	[ "$output" = "fuzz t: ok, 103 units from 3 seeds in 30 s, cov: 600 (seed 42)" ]
}

@test "fuzz-ci: the options and folders reach libFuzzer, the seeds left as they were" {
	fake bin 'printf "%s\n" "$@" >"$(dirname "$0")/args"; touch "${@: -2:1}/new"
	echo "Done 200 runs in 30 second(s)"; echo "stat::number_of_executed_units: 200"
	echo "#200	DONE   cov: 700 ft: 1"'
	ci_run
	[ "$status" -eq 0 ]
	grep -qx -- '-max_total_time=30' "$BATS_TEST_TMPDIR/args"
	grep -qx -- '-max_len=9' "$BATS_TEST_TMPDIR/args"
	[ "$(tail -n 1 "$BATS_TEST_TMPDIR/args")" = "$BATS_TEST_TMPDIR/seeds" ]
	[ "$(ls "$BATS_TEST_TMPDIR/seeds" | wc -l)" -eq 3 ]
}

@test "fuzz-ci: a crash, a sanitizer's report or an exit of the harness fails" {
	fake bin 'echo "==1== ERROR: libFuzzer: deadly signal"
	echo "artifact_prefix='"'"'x/'"'"'; Test unit written to x/crash-abc"
	echo "stat::number_of_executed_units: 5000"; exit 77'
	ci_run
	[ "$status" -eq 1 ]
	[[ "${lines[${#lines[@]} - 1]}" == "fuzz t: FAILED: libFuzzer exited 77 (x/crash-abc; reproduce: "* ]]
	# the end of libFuzzer's output is shown
	[[ "$output" == *"deadly signal"* ]]
}

@test "fuzz-ci: a run that stops early without saying Done fails" {
	fake bin 'echo "#3	INITED cov: 900 ft: 1"'
	ci_run
	[ "$status" -eq 1 ]
	[[ "${lines[${#lines[@]} - 1]}" == "fuzz t: FAILED: no \"Done N runs\" line: it stopped early;"* ]]
}

@test "fuzz-ci: fewer units than the seeds and 100 more fails" {
	fake bin "$(printf 'cat <<"EOD"\n%s\nEOD' "$(done_run 102 600)")"
	ci_run
	[ "$status" -eq 1 ]
	[[ "${lines[${#lines[@]} - 1]}" == "fuzz t: FAILED: fewer than the 103 units it should execute;"* ]]
	FUZZ_CI_MIN_NEW=99 ci_run
	[ "$status" -eq 0 ]
}

@test "fuzz-ci: fewer edges than asked for fails" {
	fake bin "$(printf 'cat <<"EOD"\n%s\nEOD' "$(done_run 500 599)")"
	ci_run
	[ "$status" -eq 1 ]
	[[ "${lines[${#lines[@]} - 1]}" == "fuzz t: FAILED: it covers fewer than 600 edges;"* ]]
}
