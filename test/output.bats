#!/usr/bin/env bats
# output: every output is checked. A report, a list, the help or a :write file
# that could not be written fails (status 1) and says why, never with silence or
# status 0 (round 3, items 9 and 10). /dev/full takes no byte: each write fails
# with ENOSPC, "No space left on device".

load test_helper

setup_file() {
	[ -w /dev/full ] || skip "no /dev/full"
}

# full ARGS...: ncgrind ARGS with standard output on /dev/full; must fail with
# status 1 and the one message.
full() {
	status=0
	"$NCGRIND" "$@" >/dev/full 2>"$ERR" || status=$?
	expect_status 1 || {
		echo "with: $*"
		return 1
	}
	expect_err <<'EOF' || {
ncgrind: write error: No space left on device
EOF
		echo "with: $*"
		return 1
	}
}

@test "output: every report of one profile, in each of its formats, into /dev/full" {
	local P="$FIX/example.callgrind" kind fmt
	for kind in functions calls tree lines callers callees; do
		for fmt in text tsv json; do
			[ "$kind/$fmt" != lines/text ] || continue # (lines: tsv and json)
			full --dump=$kind --format=$fmt --function=main "$P" || return 1
		done
	done
	full --dump=folded "$P"
	full --dump=source --function=main "$P"
	full --dump=source --format=json --function=main "$P"
	# --stats: its lines on stderr first, the write error last
	status=0
	"$NCGRIND" --dump=functions --stats "$P" >/dev/full 2>"$ERR" || status=$?
	expect_status 1
	[ "$(tail -n 1 "$ERR")" = "ncgrind: write error: No space left on device" ]
	for kind in object file class cycle; do
		full --dump=functions --group=$kind "$P"
		full --dump=functions --group=$kind --format=json "$P"
	done
}

@test "output: a report bigger than the output buffer, whose writes fail before the close" {
	# 5,000 functions: about 300 KB of text, so the writes fail long before the end
	{
		printf 'events: Ir\nfl=a.c\n'
		seq 5000 | awk '{ printf "fn=function_%d\n1 %d\n", $1, $1 }'
	} >"$BATS_TEST_TMPDIR/big.callgrind"
	full --dump=functions "$BATS_TEST_TMPDIR/big.callgrind"
	full --dump=tree "$BATS_TEST_TMPDIR/big.callgrind"
	full --diff "$BATS_TEST_TMPDIR/big.callgrind" "$BATS_TEST_TMPDIR/big.callgrind"
}

@test "output: every report of a diff into /dev/full (no uninitialised message, no status 2)" {
	local P="$FIX/example.callgrind" kind fmt
	for kind in functions calls tree lines; do
		for fmt in text tsv json; do
			[ "$kind/$fmt" != lines/text ] || continue
			full --diff --dump=$kind --format=$fmt "$P" "$P" || return 1
		done
	done
	full --diff --dump=source --function=main "$P" "$P"
	full --diff --dump=source --format=json --function=main "$P" "$P"
}

@test "output: --list-keys, --list-commands, --list-settings, --list-options, --version, --help into /dev/full" {
	local opt
	for opt in --list-keys --list-commands --list-settings --list-options --version --help -h; do
		full $opt || return 1
	done
}

@test "output: a failure said already keeps its status and message; nothing written, no write error" {
	# a usage error prints nothing on stdout: 2 and its own message alone
	status=0
	"$NCGRIND" --dump=nonsense "$FIX/example.callgrind" >/dev/full 2>"$ERR" || status=$?
	expect_status 2
	run grep -c "write error" "$ERR"
	[ "$output" = 0 ]
	# a report that cannot be made: its reason, not a write error
	status=0
	"$NCGRIND" --dump=callers --function=nomatch "$FIX/example.callgrind" >/dev/full \
		2>"$ERR" || status=$?
	expect_status 1
	expect_err <<'EOF'
ncgrind: no function matches 'nomatch'
EOF
	# a closed standard output is no error when nothing is written to it
	status=0
	"$NCGRIND" --dump=nonsense "$FIX/example.callgrind" >&- 2>"$ERR" || status=$?
	expect_status 2
	run grep -c "write error" "$ERR"
	[ "$output" = 0 ]
	# and is one when the report is
	status=0
	"$NCGRIND" --version >&- 2>"$ERR" || status=$?
	expect_status 1
	expect_err <<'EOF'
ncgrind: write error: Bad file descriptor
EOF
}

@test "output: :write and :save-screen into /dev/full say so, on the status line and at the end" {
	cd "$BATS_TEST_TMPDIR"
	cat >keys <<EOF
:write /dev/full
:save-screen $BATS_TEST_TMPDIR/after-write
:save-screen /dev/full
:save-screen $BATS_TEST_TMPDIR/after-save
:write $BATS_TEST_TMPDIR/written
:save-screen $BATS_TEST_TMPDIR/after-ok
EOF
	ncg --script=keys "$FIX/example.callgrind"
	expect_status 1
	# the last file that was not written, said again when the browser ends
	expect_err <<'EOF'
ncgrind: write error on '/dev/full': No space left on device
EOF
	tail -n 1 after-write >"$OUT"
	tail -n 1 after-save >>"$OUT"
	tail -n 1 after-ok >>"$OUT"
	expect_out <<EOF
1/281  sort: self Ir   write error on '/dev/full': No space left on device
1/281  sort: self Ir   write error on '/dev/full': No space left on device
1/281  sort: self Ir   wrote $BATS_TEST_TMPDIR/written
EOF
	# the file that was written holds the table: its head and 281 rows
	[ "$(wc -l <written)" -gt 281 ]
}

@test "output: a :write that succeeds leaves the status 0" {
	cd "$BATS_TEST_TMPDIR"
	printf ':write %s\n' "$BATS_TEST_TMPDIR/w" >keys
	ncg --script=keys "$FIX/example.callgrind"
	expect_status 0
	expect_no_err
	[ -s w ]
}
