#!/usr/bin/env bats
# Proportion by construction (issue 28): small files whose reading or report once
# cost far more than their size. Each test checks a shape, never a time: the
# memory it fits in (ulimit -v), the size of its output, or how the instructions
# it runs grow with the file (valgrind's count, the same on every machine: a
# linear pass runs about 2 times the instructions on a file 2 times larger, a
# quadratic one about 4). The files are made by test/tools/mk-shapes.sh.

load test_helper

# shape KIND N: write mk-shapes.sh's KIND of size N and print its path.
shape() {
	local f="$BATS_TEST_TMPDIR/$1-$2.callgrind"
	[ -f "$f" ] || "$TOOLS/mk-shapes.sh" "$1" "$2" >"$f"
	echo "$f"
}

# The instruction counts need valgrind, and a binary it can run (not ASan's).
need_valgrind() {
	command -v valgrind >/dev/null || skip "valgrind is not installed"
	if grep -q __asan_init "$NCGRIND"; then
		skip "a sanitizer build does not run under valgrind"
	fi
}

# instructions ARGS...: how many instructions ncgrind ARGS runs (stdout dropped).
instructions() {
	local cg="$BATS_TEST_TMPDIR/icount.out"
	valgrind --tool=callgrind --callgrind-out-file="$cg" "$NCGRIND" "$@" \
		>/dev/null 2>"$BATS_TEST_TMPDIR/icount.err" || {
		cat "$BATS_TEST_TMPDIR/icount.err" >&2
		return 1
	}
	awk '/^summary:/ { print $2 }' "$cg"
}

# linear SMALL LARGE: LARGE (a file twice SMALL's size) ran under 3 times SMALL's.
linear() {
	echo "instructions: $1, then $2 on twice the input"
	[ "$1" -gt 0 ] && [ "$2" -lt $(($1 * 3)) ]
}

@test "shapes: an events: line of 10,000 events is checked for repeats in one pass" {
	# Each event was compared with every one before it: 20,000 events ran 3.8 times
	# the instructions of 10,000 (100,000: 5.6 s). Its one column is printed.
	need_valgrind
	local a b
	a=$(instructions --dump=functions --format=tsv --events=E0 --jobs=1 "$(shape events 10000)")
	b=$(instructions --dump=functions --format=tsv --events=E0 --jobs=1 "$(shape events 20000)")
	linear "$a" "$b"
}

@test "shapes: an event repeated far along the events: line is still refused" {
	# E0..E9999 then E5000 again: which column is which? the file is refused there
	{
		printf 'events:'
		seq 0 9999 | sed 's/^/ E/' | tr -d '\n'
		printf ' E5000\nfl=a.c\nfn=main\n1 1\n'
	} >"$BATS_TEST_TMPDIR/repeat.callgrind"
	ncg --dump=functions "$BATS_TEST_TMPDIR/repeat.callgrind"
	expect_status 1
	expect_err <<EOF
$BATS_TEST_TMPDIR/repeat.callgrind:1: event 'E5000' listed twice in events:
EOF
}
