#!/usr/bin/env bats
# Files that crashed, hung, tripped a sanitizer or broke a harness's check
# (found by `make fuzz` or `make fuzz-inputs`), kept in test/fixtures/hostile/
# with a .txt note each. A test here comes with the fix of the bug its file
# found; the files of bugs still open (in the reader) have only their note. The
# sanitizer findings fail their test only against a sanitizer
# build (make asan; the note says which compiler's sanitizer sees it).

load test_helper

H="$BATS_TEST_DIRNAME/fixtures/hostile"
PROBE="${PROBE:-$BATS_TEST_DIRNAME/tools/probe}"

# run ncgrind on FILE from the fixtures dir, so that messages name the bare file
hostile() {
	cd "$H" || return
	ncg "$@"
}

@test "fuzz-found: callers and callees of a call whose caller's blocks hold no call line" {
	# ubsan-null-call-sites: calls= before any fn= (a reader bug: the unnamed
	# caller's re-read finds no call line for its edge to work); looking up the
	# call sites of that edge added 0 to a NULL array (graph.c call_sites_of),
	# undefined behaviour that clang's UBSan reports. The sites are not pinned:
	# they are the reader's to get right.
	hostile --dump=callees --function='^$' ubsan-null-call-sites.callgrind
	expect_status 1
	refute_grep 'runtime error|Sanitizer' "$ERR"
	assert_grep "callees of (unknown)  (incl 90 = 100.00%, called 0 times)" "$OUT"
	assert_grep "               90 100.00% 100.00%          3  work" "$OUT"
	hostile --dump=callers --format=tsv --function='^work$' ubsan-null-call-sites.callgrind
	expect_status 1
	refute_grep 'runtime error|Sanitizer' "$ERR"
	assert_grep "$(printf 'work\t(unknown)\t\t3\t90\t90\t100.00\t100.00\t')" "$OUT"
}

@test "fuzz-found: every file of fixtures/hostile gives every report without a crash or a hang" {
	# the reader's open mismatches included: their numbers are not pinned here,
	# only that each report ends, by itself, within 10 s and with 0 or 1
	local f d bad=0
	cd "$H" || return
	for f in *.callgrind; do
		for d in functions calls tree lines; do
			status=0
			timeout 10 "$NCGRIND" --dump=$d "$f" >"$OUT" 2>"$ERR" || status=$?
			if [ "$status" -gt 1 ] || grep -qE 'runtime error|Sanitizer' "$ERR"; then
				echo "--dump=$d $f: exit $status"
				head -5 "$ERR"
				bad=1
			fi
		done
		for d in callers callees source; do
			status=0
			timeout 10 "$NCGRIND" --dump=$d --function=. --no-cycles "$f" >"$OUT" 2>"$ERR" ||
				status=$?
			if [ "$status" -gt 1 ] || grep -qE 'runtime error|Sanitizer' "$ERR"; then
				echo "--dump=$d --function=. --no-cycles $f: exit $status"
				head -5 "$ERR"
				bad=1
			fi
		done
	done
	[ "$bad" = 0 ]
}

@test "fuzz-found: a block's start position is kept unless its first cost line sets one (re-read = index)" {
	# reread-*: see their notes. The probe re-reads every block and compares with
	# the index (the lazy path of the source view and call sites).
	local f
	for f in reread-calls-first-relative-cost reread-rejected-first-abs-line \
		reread-space-cr-after-cost; do
		"$PROBE" check "$H/$f.callgrind" >"$OUT" 2>&1 || { cat "$OUT"; return 1; }
	done
	# '1 1 ' + CR LF, then '2 5' + CR LF: both lines count (1 + 5)
	cd "$BATS_TEST_TMPDIR"
	printf 'events: Ir\r\nfn=a\r\n1 1 \r\n2 5\r\n' >crlf.callgrind
	ncg --dump=functions --format=tsv crlf.callgrind
	expect_status 0
	expect_no_err
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
a |  |  | 0 | 6 | 6
EOF
}

@test "fuzz-found: a damaged stream that gave more than the limit before its damage is too big" {
	# xz-damaged-past-limit: "events: Ir" and zeros, 1650555 bytes, then damage.
	# Under a limit one byte below, liblzma filled the buffer of max bytes and
	# reported the damage: kept as 1650554 bytes "before the damage", where the
	# stream gives more than the limit (a bomb cut at the limit, read as a
	# damaged file). The decoders may now write a byte past the limit to say so.
	# (The bytes begin as a profile does: a stream that does not is refused
	# after its first MiB, whatever its size.)
	local f="$H/xz-damaged-past-limit.xz"
	run "$PROBE" unpack "$f" 1650554
	[ "$status" -eq 1 ]
	[ "$output" = "error: decompresses to more than 1 MiB (half the memory); decompress it to a file and open that" ]
	run "$PROBE" unpack "$f" 1650555
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "ok: 1650555 bytes" ]
	[[ "${lines[1]}" == "warning: damaged xz data at byte "*"; the 1650555 bytes before it are read" ]]
	# the same bytes, one past the limit, each decoder: too big, not damaged
	{
		printf 'events: Ir\n'
		head -c $((1650555 - 11)) /dev/zero
	} >"$BATS_TEST_TMPDIR/z"
	for z in gzip xz zstd; do
		command -v $z >/dev/null || skip "no $z"
		$z -c -q <"$BATS_TEST_TMPDIR/z" >"$BATS_TEST_TMPDIR/z.$z"
		run "$PROBE" unpack "$BATS_TEST_TMPDIR/z.$z" 1650554
		[ "$status" -eq 1 ] || { echo "$z: $output"; return 1; }
		run "$PROBE" unpack "$BATS_TEST_TMPDIR/z.$z" 1650555
		[ "$output" = "ok: 1650555 bytes" ] || { echo "$z: $output"; return 1; }
	done
}

@test "fuzz-found: a buffer cut to a tiny limit still grows: no endless loop" {
	# gzip-tiny-limit: 1 byte, then a damaged block. Under a limit of 1 the buffer
	# was 3 bytes, and 3 / 2 * 3 is 3: it never grew and the decoder looped
	local f="$H/gzip-tiny-limit.gz"
	run timeout 20 "$PROBE" unpack "$f" 1
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "ok: 1 bytes" ]
	run timeout 20 "$PROBE" unpack "$f" 0
	[ "$status" -eq 1 ]
	[[ "$output" == "error: decompresses to more than"* ]]
}
