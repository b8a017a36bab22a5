# test_helper.bash: common setup for ncgrind's bats tests.
#
# Every test file starts with `load test_helper`. The environment is fixed so that
# results do not depend on the user running the tests: C.UTF-8 locale, UTC, a private
# HOME without any configuration, a fixed terminal size.
#
# Running ncgrind:
#   ncg ARGS...          runs [$VALGRIND] $NCGRIND ARGS; stdout goes to $OUT, stderr
#                        to $ERR, the exit status to $status (the test goes on
#                        whatever it is)
#   ncg_stdin FILE ARGS  the same with FILE on standard input
# Checking (each prints a unified diff and fails on a difference):
#   expect_status N      $status must be N
#   expect_out           stdout must equal the here-document given on stdin
#   expect_err           stderr must equal the here-document given on stdin
#   expect_tsv           stdout must equal the here-document, where " | " stands for
#                        a TAB (so empty fields and trailing blanks stay visible)
#   expect_no_err        stderr must be empty
# The expected text is always written in the test itself and was worked out by hand
# from the fixture, never pasted from ncgrind's output.

export LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC TERM=dumb LINES=24 COLUMNS=80 ESCDELAY=25
unset NCGRIND_OPTIONS XDG_CONFIG_HOME
# e runs $VISUAL or $EDITOR (else vi), in script mode too: never the user's, nor
# a vi that would wait for a terminal; editor.bats sets its own
unset VISUAL
export EDITOR=true

# `make check` / `make asan` pass the binary to test in NCGRIND; by default the one
# built in the top directory. With VALGRIND set (`make valgrind`: a valgrind command
# line with --error-exitcode), every ncgrind run of ncg/ncg_stdin goes through it.
NCGRIND="${NCGRIND:-$BATS_TEST_DIRNAME/../ncgrind}"
VALGRIND="${VALGRIND:-}"
# shellcheck disable=SC2034 # used by the .bats files
FIX="$BATS_TEST_DIRNAME/fixtures"
# shellcheck disable=SC2034
TOOLS="$BATS_TEST_DIRNAME/tools"

setup() {
	HOME="$BATS_TEST_TMPDIR/home"
	mkdir -p "$HOME"
	export HOME
	# the kept indexes (cache.h) of this test only, never the user's ~/.cache
	export XDG_CACHE_HOME="$BATS_TEST_TMPDIR/cache"
	OUT="$BATS_TEST_TMPDIR/stdout"
	ERR="$BATS_TEST_TMPDIR/stderr"
	if [ ! -x "$NCGRIND" ]; then
		echo "ncgrind is not built: run make in $BATS_TEST_DIRNAME/.." >&2
		return 1
	fi
}

ncg() {
	status=0
	# shellcheck disable=SC2086 # $VALGRIND is a command line
	$VALGRIND "$NCGRIND" "$@" >"$OUT" 2>"$ERR" || status=$?
}

ncg_stdin() {
	local in=$1
	shift
	status=0
	# shellcheck disable=SC2086
	$VALGRIND "$NCGRIND" "$@" <"$in" >"$OUT" 2>"$ERR" || status=$?
}

expect_status() {
	if [ "$status" != "$1" ]; then
		echo "exit status: expected $1, got $status"
		echo "--- stderr:"
		head -c 2000 "$ERR"
		return 1
	fi
}

# compare FILE-WITH-EXPECTED ACTUAL-FILE LABEL
_expect_diff() {
	if ! diff -u --label "expected $3" --label "actual $3" "$1" "$2"; then
		if [ "$3" != stderr ] && [ -s "$ERR" ]; then
			echo "--- (stderr was:)"
			head -c 2000 "$ERR"
		fi
		return 1
	fi
}

expect_out() {
	cat >"$BATS_TEST_TMPDIR/expected"
	_expect_diff "$BATS_TEST_TMPDIR/expected" "$OUT" stdout
}

expect_err() {
	cat >"$BATS_TEST_TMPDIR/expected.err"
	_expect_diff "$BATS_TEST_TMPDIR/expected.err" "$ERR" stderr
}

expect_no_err() {
	: | expect_err
}

expect_tsv() {
	sed 's/ | /\t/g' >"$BATS_TEST_TMPDIR/expected"
	_expect_diff "$BATS_TEST_TMPDIR/expected" "$OUT" stdout
}

# tsv_ok ARGS...: run ncgrind --format=tsv ARGS and check it succeeded without messages;
# used where a test then compares stdout with expect_tsv.
tsv_ok() {
	ncg --format=tsv "$@"
	expect_status 0
	expect_no_err
}

# drop_zero_rows: remove from $OUT (tsv) the data rows whose calls and costs are all
# 0 (functions only named, by a cfn= whose call was dropped or a fn= line without
# cost lines), where a test does not want to pin whether they are listed.
drop_zero_rows() {
	awk -F'\t' 'NR == 1 { print; next }
		{ for (i = 4; i <= NF; i++) if ($i != "0") { print; next } }' "$OUT" >"$OUT.nz"
	mv "$OUT.nz" "$OUT"
}

# refute_grep PATTERN FILE: fail when FILE has a line matching PATTERN (grep -E).
# (`! grep ...` would not fail a bats test: set -e ignores negated commands.)
refute_grep() {
	if grep -E -n -- "$1" "$2" | head -5 | grep .; then
		echo "unexpected match of '$1' in $2"
		return 1
	fi
}

# assert_grep PATTERN FILE: fail, showing FILE's start, unless a line matches (grep -F).
assert_grep() {
	if ! grep -q -F -- "$1" "$2"; then
		echo "expected to find: $1"
		echo "--- in $2:"
		head -c 3000 "$2"
		return 1
	fi
}

# beside FILES...: fixtures/beside/wordfreq.callgrind copied into $BATS_TEST_TMPDIR/prof
# with FILES of fixtures/beside (wordfreq.c, hidden/wordfreq.c), older than the profile.
# The profile says fl=/home/dev/hidden/wordfreq.c, where it was built; count_words
# costs 30 and 12 Ir on lines 5 and 6, of 48 Ir in all (62.50% and 25.00%).
beside() {
	local from="$BATS_TEST_DIRNAME/fixtures/beside" f
	mkdir -p "$BATS_TEST_TMPDIR/prof"
	cp "$from/wordfreq.callgrind" "$BATS_TEST_TMPDIR/prof/"
	for f; do
		mkdir -p "$BATS_TEST_TMPDIR/prof/$(dirname "$f")"
		cp "$from/$f" "$BATS_TEST_TMPDIR/prof/$f"
		touch -d 2000-01-01 "$BATS_TEST_TMPDIR/prof/$f"
	done
}

# tmux_kill_server SOCK: end the private tmux server of a test (tmux -L SOCK) and
# remove its socket, which tmux leaves behind.
tmux_kill_server() {
	local path
	command -v tmux >/dev/null || return 0
	path=$(tmux -L "$1" display-message -p '#{socket_path}' 2>/dev/null) || path=
	tmux -L "$1" kill-server 2>/dev/null || true
	if [ -n "$path" ]; then
		rm -f "$path"
	fi
}

# mem_limit KB: bound the memory of what this (sub)shell runs next: ulimit -v,
# or, for an ASan build (which reserves terabytes of address space for its
# shadow and cannot start under ulimit -v), its own limit on resident memory.
mem_limit() {
	if grep -q __asan_init "$NCGRIND" 2>/dev/null; then
		export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=$(($1 / 1024))"
	else
		ulimit -v "$1"
	fi
}

# tied_profile FILE [main-last]: 30,000 functions w00000..w29999 that main
# calls, whose names do not come in the order they are defined (the i-th is
# w((i * 7919) mod 30000), 7919 prime to 30000) and whose costs tie by the
# hundred: the i-th costs 1 + i mod 97 Ir and i mod 5 Dr, and is called
# 1 + i mod 13 times. main costs 1 Ir; it comes first, or with main-last
# after them (then each chunk brings functions of their own costs). 1.4 MB.
tied_profile() {
	awk -v last="${2:-}" 'BEGIN { n = 30000
		print "# callgrind format"; print "events: Ir Dr"; print "fl=t.c"
		if (last == "")
			main()
		for (i = 1; i <= n; i++)
			printf "fn=w%05d\n2 %d %d\n", (i * 7919) % n, 1 + i % 97, i % 5
		if (last != "")
			main()
	}
	function main(   i) {
		print "fn=main"; print "1 1 0"
		for (i = 1; i <= n; i++)
			printf "cfn=w%05d\ncalls=%d 2\n1 %d 0\n", (i * 7919) % n, 1 + i % 13, 1 + i % 97
	}' >"$1"
}
