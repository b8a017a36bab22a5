# shellcheck shell=bash
# each-file.sh: sourced by the test tools that run a check on many profiles,
# each check a few dozen short processes (under ASan their start is most of
# the time). each_file TMP FN FILE... runs "FN FILE DIR" for every FILE, at
# most TEST_JOBS at a time (default: the cores), DIR a new directory of its
# own, TMP/each/1 .. TMP/each/N in the order of the files, FN's stdout kept in
# DIR/out; then prints each DIR/out in that order, so that the output is the
# one the files one after the other would give. FN may leave other results
# in DIR for the caller.
each_file() {
	local tmp=$1 fn=$2 n=0 max=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)} f k
	shift 2
	mkdir -p "$tmp/each"
	for f in "$@"; do
		n=$((n + 1))
		mkdir "$tmp/each/$n"
		"$fn" "$f" "$tmp/each/$n" >"$tmp/each/$n/out" &
		while [ "$(jobs -rp | wc -l)" -ge "$max" ]; do
			wait -n || true
		done
	done
	wait
	for ((k = 1; k <= n; k++)); do
		cat "$tmp/each/$k/out"
	done
}
