#!/usr/bin/env bats
# Streams that are not profiles (issue 28): a pipe or a decompressed file is
# checked as it arrives, and refused after its first line when that line cannot
# start a profile, instead of being held whole (1 GB of zeros took 980 MB). The
# memory is bounded with ulimit -v (mem_limit): 150 MB is room for ncgrind, not for the
# 256 MiB and 1 GiB streams below.

load test_helper

# zeros N: N MiB of zero bytes as N concatenated gzip members of 1 MiB (gzip -d
# reads them all, as ncgrind does), in zeros.gz
zeros() {
	cd "$BATS_TEST_TMPDIR" || return
	head -c 1048576 /dev/zero | gzip -9 >one.gz
	for _ in $(seq "$1"); do cat one.gz; done >zeros.gz
}

@test "stream: 256 MiB of zeros in gzip is refused at its first line, in bounded memory" {
	zeros 256
	status=0
	(
		mem_limit 150000
		exec "$NCGRIND" --dump=functions zeros.gz
	) >"$OUT" 2>"$ERR" || status=$?
	expect_status 1
	expect_out </dev/null
	expect_err <<<'zeros.gz:1: not a callgrind or cachegrind profile'
}

@test "stream: 1 GiB of zeros on standard input is refused at its first line, in bounded memory" {
	cd "$BATS_TEST_TMPDIR" || return
	status=0
	(
		mem_limit 150000
		head -c 1G /dev/zero | "$NCGRIND" --dump=functions -
	) >"$OUT" 2>"$ERR" || status=$?
	expect_status 1
	expect_err <<<'-:1: not a callgrind or cachegrind profile'
}

@test "stream: a pipe with no profile line in its first MiB is read no further, and says so" {
	status=0
	# 3 MiB of comment lines: 1 MiB is read, then the parser finds no events: line
	(yes '#' | head -c 3M | "$NCGRIND" --dump=functions -) >"$OUT" 2>"$ERR" || status=$?
	expect_status 1
	expect_err <<'EOF2'
-: no profile line in the first 1 MiB: read no further
-: no events: line; not a callgrind or cachegrind profile
EOF2
}

@test "stream: comments and blank lines before the header, piped and in gzip, are a profile" {
	cd "$BATS_TEST_TMPDIR" || return
	{
		yes '# a comment' | head -n 40000 # (480,000 bytes: under the first MiB)
		printf '\n  \r\n\t\n'
		printf 'events: Ir\nfl=a.c\nfn=main\n1 5\n'
	} >p.callgrind
	gzip -c p.callgrind >p.gz
	ncg_stdin p.callgrind --dump=functions --format=tsv -
	expect_status 0
	grep -c 'main' "$OUT" >"$OUT.n"
	[ "$(cat "$OUT.n")" = 1 ]
	ncg --dump=functions --format=tsv p.gz
	expect_status 0
	grep -q 'main' "$OUT"
	# a gzip piped in is decompressed whole, its first line looked at then
	ncg_stdin p.gz --dump=functions --format=tsv -
	expect_status 0
	grep -q 'main' "$OUT"
}

@test "stream: a first line that is a key, split across reads of the pipe, is a profile" {
	status=0
	# 'ev' first, the rest a moment later: the first read holds no whole line
	({ printf 'ev'; sleep 0.2; printf 'ents: Ir\nfl=a.c\nfn=main\n1 5\n'; } |
		"$NCGRIND" --dump=functions --format=tsv -) >"$OUT" 2>"$ERR" || status=$?
	expect_status 0
	expect_no_err
	grep -q 'main' "$OUT"
}

@test "stream: the decompressing screen's q stops the decoder, which says how far it got" {
	# probe unpack FILE MAX stop: the progress says stop at its first report, as
	# the browser's does on q: the decoder ends there (no table, no profile).
	# The report comes every 4 MB in or 32 MB out, so a bomb of a few KB in is
	# stopped too. Without stop, the same file is read whole.
	local f="$BATS_TEST_TMPDIR/pad.gz"
	{
		printf 'events: Ir\nfl=a.c\nfn=main\n1 5\n'
		yes '# padding padding padding padding' | head -c 100000000
	} | gzip -1 >"$f"
	[ "$(wc -c <"$f")" -lt 1000000 ]
	run "$PROBE" unpack "$f" 200000000 stop
	[ "$status" -eq 3 ]
	[[ "$output" == "stopped: stopped after "*" MB decompressed" ]]
	run "$PROBE" unpack "$f" 200000000
	[ "$status" -eq 0 ]
	[ "$output" = "ok: 100000030 bytes" ]
}
