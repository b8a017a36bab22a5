#!/usr/bin/env bats
# The reader against hostile files (issue 13): the lazy re-read of a function
# (parse_block: the source view, call sites) sees what the index saw, and memory
# follows the file, not the numbers written in it. Fixtures from
# ../shared/corpus/hostile/ (each with its note there) in test/fixtures/hostile/.

load test_helper

H="$BATS_TEST_DIRNAME/fixtures/hostile"
PROBE="${PROBE:-$BATS_TEST_DIRNAME/tools/probe}"

@test "reader: cob= given before fn= reaches the cfn= after it, in the index and in the re-read call site" {
	# ob=libx.so / fn=target 1 7 makes the second target; then ob= (empty),
	# cob=libx.so before fn=caller: the call goes to libx.so's target, 5 calls,
	# cost 7, from line 2 of a.c
	ncg --dump=callers --function='^target$' "$H/check-mismatch-cob-before-fn-readable.callgrind"
	expect_status 0
	expect_out <<'EOF2'
callers of target  (incl 100 = 90.09%, called 0 times)
    cost of calls  %total    %func      calls  caller
callers of target  (incl 7 = 6.31%, called 5 times)
    cost of calls  %total    %func      calls  caller
                7   6.31% 100.00%          5  caller  at a.c:2
EOF2
	run "$PROBE" check "$H/check-mismatch-cob-before-fn-readable.callgrind"
	[ "$status" -eq 0 ]
	run "$PROBE" check "$H/check-mismatch-cob-before-fn.callgrind"
	[ "$status" -eq 0 ]
}

@test "reader: a compressed id used before its definition stays undefined at that line on re-read" {
	# cfn=(510) at line 3, defined only by fn=(510)s at line 6: the call goes to
	# an unnamed function, in the index and in its call site (line 5, the cost
	# line's position 2)
	ncg --dump=callees --function='^$' "$H/check-mismatch-forward-id.callgrind"
	expect_status 1
	expect_out <<'EOF2'
callees of   (incl 0 = 0.00%, called 0 times)
    cost of calls  %total    %func      calls  callee
                0   0.00%   0.00%          1  (unknown)  at :2
callees of (unknown)  (incl 0 = 0.00%, called once)
    cost of calls  %total    %func      calls  callee
EOF2
	assert_grep "check-mismatch-forward-id.callgrind:3: undefined compressed function id (510)" "$ERR"
	run "$PROBE" check "$H/check-mismatch-forward-id.callgrind"
	[ "$status" -eq 0 ]
}

@test "reader: a redefined compressed id means, on re-read, what it meant at each line" {
	# (1) is a, then b: the call at line 6 goes to a (cost 6, a's self), the one
	# at line 12 to b (cost 4, b's self); main: 1 + 6 + 4 = 11, the total
	printf '%s\n' 'events: Ir' 'fn=(9) main' '1 1' 'cfn=(1) a' 'calls=2 5' '2 6' \
		'fn=(1) b' '3 4' 'fn=(9)' 'cfn=(1)' 'calls=3 6' '4 4' 'fn=(1) a' '5 6' \
		>"$BATS_TEST_TMPDIR/redef.callgrind"
	ncg --dump=callees --function='^main$' "$BATS_TEST_TMPDIR/redef.callgrind"
	expect_status 0
	expect_out <<'EOF2'
callees of main  (incl 11 = 100.00%, called 0 times)
    cost of calls  %total    %func      calls  callee
                6  54.55%  54.55%          2  a  at :2
                4  36.36%  36.36%          3  b  at :4
EOF2
	run "$PROBE" check "$BATS_TEST_TMPDIR/redef.callgrind"
	[ "$status" -eq 0 ]
}

@test "reader: a part that renames an id keeps, on re-read, the ids it defined as the parts before" {
	# Part 2 defines (1) a as part 1 did (kept in no table of its own) and
	# (2) as c, not b: it keeps a table of its own, which must hold (1) too,
	# for the re-read of its call cfn=(1) at line 2. By hand: a self 1 + 2 + 4
	# + 1 = 8, with its call to b (5) 13; b 5 + 1 = 6; c 3, with its call to
	# a (7) 10.
	printf '%s\n' 'events: Ir' 'part: 1' 'fn=(1) a' '1 1' 'cfn=(2) b' 'calls=1 1' '1 5' \
		'fn=(2) b' '1 5' 'part: 2' 'fn=(1) a' '1 2' 'fn=(2) c' '1 3' 'cfn=(1)' 'calls=1 2' \
		'2 7' 'fn=(1)' '3 4' 'part: 3' 'fn=(1) a' '1 1' 'fn=(2) b' '1 1' \
		>"$BATS_TEST_TMPDIR/parts.callgrind"
	ncg --dump=functions --format=tsv "$BATS_TEST_TMPDIR/parts.callgrind"
	expect_status 0
	expect_out <<'EOF2'
function	file	object	calls	self:Ir	incl:Ir
a			1	8	13
b			1	6	6
c			0	3	10
EOF2
	ncg --dump=callers --function='^a$' "$BATS_TEST_TMPDIR/parts.callgrind"
	expect_out <<'EOF2'
callers of a  (incl 13 = 76.47%, called once)
    cost of calls  %total    %func      calls  caller
                7  41.18%  53.85%          1  c  at :2
EOF2
	run "$PROBE" check "$BATS_TEST_TMPDIR/parts.callgrind"
	[ "$status" -eq 0 ]
}

@test "reader: the cost line of a rejected calls= before any fn= counts nowhere, not even on re-read" {
	# events: NUL / calls= (no count: rejected) / 7 9: the line belongs to the
	# rejected call, so no function is made for it
	run "$PROBE" check "$H/check-mismatch-rejected-calls-unnamed-fn.callgrind"
	[ "$status" -eq 0 ]
	ncg --dump=lines "$H/check-mismatch-rejected-calls-unnamed-fn.callgrind"
	refute_grep '9' "$OUT"
}

@test "reader: huge compressed ids cost memory by the ids defined, not by their size" {
	# 8 parts with ids near 2^26 (491 bytes) took 6.3 GB; one fl=(2147483647) 265 MB
	/usr/bin/time -f '%M' -o "$BATS_TEST_TMPDIR/rss" "$NCGRIND" --dump=functions --format=tsv \
		"$H/mem-compressed-id-tables.callgrind" >"$OUT" 2>"$ERR" || true
	[ "$(tail -1 "$BATS_TEST_TMPDIR/rss")" -lt 200000 ] # KB, ASan included
	assert_grep "mem-compressed-id-tables.callgrind:6: cost line before any fn= line" "$ERR"
	printf '%s\n' 'events: Ir' 'fl=(2147483647) a.c' 'fn=(4000000000) main' \
		'1 5' 'fn=(4000000000)' '2 6' >"$BATS_TEST_TMPDIR/big-ids.callgrind"
	/usr/bin/time -f '%M' -o "$BATS_TEST_TMPDIR/rss" "$NCGRIND" --dump=functions --format=tsv \
		"$BATS_TEST_TMPDIR/big-ids.callgrind" >"$OUT" 2>"$ERR"
	[ "$(tail -1 "$BATS_TEST_TMPDIR/rss")" -lt 200000 ]
	expect_tsv <<'EOF2'
function | file | object | calls | self:Ir | incl:Ir
main | a.c |  | 0 | 11 | 11
EOF2
}

@test "input: a device is refused at once (/dev/zero never ends); a FIFO with no writer is an empty profile, not a hang" {
	run timeout 10 "$NCGRIND" --dump=functions /dev/zero
	[ "$status" -eq 1 ]
	[ "$output" = "/dev/zero: cannot read: is a device, not a profile" ]
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	run timeout 10 "$NCGRIND" --dump=functions "$BATS_TEST_TMPDIR/fifo"
	[ "$status" -eq 1 ]
	[[ "$output" == *"fifo: empty file, no profile data"* ]]
}

@test "input: an unterminated last line is read in place: its costs count, on re-read too" {
	# the last line '2 7' has no newline: main is 5 + 7
	printf 'events: Ir\nfn=main\n1 5\n2 7' >"$BATS_TEST_TMPDIR/p.callgrind"
	ncg --dump=lines "$BATS_TEST_TMPDIR/p.callgrind"
	expect_status 0
	expect_tsv <<'EOF2'
file | line | self:Ir
 | 1 | 5
 | 2 | 7
EOF2
	run "$PROBE" check "$BATS_TEST_TMPDIR/p.callgrind"
	[ "$status" -eq 0 ]
}

@test "reader: 10,000 events with one value per line cost memory by the values given, not 10,000 columns" {
	# 10,000 events declared, 10,000 functions, each with the one line '1 5':
	# the columns of E1..E9999 would be zeros (2.4 GB for 250 KB); before: 828 MB
	awk 'BEGIN { printf "events:"; for (i = 0; i < 10000; i++) printf " E%d", i; print ""
		for (i = 0; i < 10000; i++) { printf "fn=(%d) f%d\n1 5\n", i + 1, i } }' \
		>"$BATS_TEST_TMPDIR/ev.callgrind"
	/usr/bin/time -f '%M' -o "$BATS_TEST_TMPDIR/rss" "$NCGRIND" --dump=functions --format=tsv \
		--sort=name "$BATS_TEST_TMPDIR/ev.callgrind" >"$OUT" 2>"$ERR"
	[ "$(tail -1 "$BATS_TEST_TMPDIR/rss")" -lt 200000 ]
	assert_grep "ev.callgrind: warning: 9999 of the 10000 events have no cost in any line: not shown" "$ERR"
	[ "$(head -1 "$OUT")" = "$(printf 'function\tfile\tobject\tcalls\tself:E0\tincl:E0')" ]
	[ "$(sed -n 2p "$OUT")" = "$(printf 'f0\t\t\t0\t5\t5')" ]
	[ "$(wc -l <"$OUT")" -eq 10001 ]
	# a few events without values stay, as zeros (callgrind omits trailing zeros)
	printf 'events: Ir Ge\nfn=main\n1 5\n' >"$BATS_TEST_TMPDIR/ge.callgrind"
	ncg --dump=functions --format=tsv "$BATS_TEST_TMPDIR/ge.callgrind"
	expect_tsv <<'EOF2'
function | file | object | calls | self:Ir | self:Ge | incl:Ir | incl:Ge
main |  |  | 0 | 5 | 0 | 5 | 0
EOF2
}

@test "hostile and malformed fixtures: every report and the browser's screens, no crash, no hang, memory bounded" {
	# exit 0 or 1 (a crash is >= 128, timeout 124, usage 2); peak memory under
	# 300 MB (ASan's own included); no sanitizer report on stderr
	local f d keys="$BATS_TEST_TMPDIR/keys" n=0
	printf '%s\n' 'Enter' 't' 'E' 'q' 'r' 'E' 'q' 'T' 'E' 'q' 'v' 'Tab' 'o' 'f' 'q' 'V' 'q' \
		'@' 'Tab' 'i' 'c' 'j' 'Enter' 'Enter' ':events' 'Enter' 'R' 'q' >"$keys"
	for f in "$H"/*.callgrind "$BATS_TEST_DIRNAME"/fixtures/malformed/*.callgrind; do
		for d in functions calls tree callers callees source lines browser; do
			if [ "$d" = browser ]; then
				set -- --script="$keys" "$f"
			else
				set -- --dump="$d" --function=. --format=text "$f"
			fi
			status=0
			/usr/bin/time -f '%M' -o "$BATS_TEST_TMPDIR/rss" timeout 30 "$NCGRIND" "$@" \
				>/dev/null 2>"$ERR" || status=$?
			[ "$status" -le 1 ] || { echo "$f --dump=$d: exit $status"; cat "$ERR"; return 1; }
			[ "$(tail -1 "$BATS_TEST_TMPDIR/rss")" -lt 300000 ] ||
				{ echo "$f $d: $(tail -1 "$BATS_TEST_TMPDIR/rss") KB"; return 1; }
			refute_grep 'runtime error|AddressSanitizer|LeakSanitizer' "$ERR" || return 1
			n=$((n + 1))
		done
	done
	[ "$n" -gt 200 ]
}
