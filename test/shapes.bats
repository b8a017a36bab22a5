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

# The instruction counts need valgrind, and a binary it can run: not ASan's, so
# under `make asan` the plain build it passes in NCGRIND_PLAIN (the same code).
need_valgrind() {
	command -v valgrind >/dev/null || skip "valgrind is not installed (make deps installs it)"
	COUNTED=$NCGRIND
	if grep -q __asan_init "$COUNTED"; then
		COUNTED=${NCGRIND_PLAIN:-}
		[ -x "$COUNTED" ] && ! grep -q __asan_init "$COUNTED" ||
			skip "a sanitizer build does not run under valgrind, and no NCGRIND_PLAIN"
	fi
}

# instructions ARGS...: how many instructions ncgrind ARGS runs (stdout dropped).
instructions() {
	local cg="$BATS_TEST_TMPDIR/icount.out"
	valgrind --tool=callgrind --callgrind-out-file="$cg" "$COUNTED" "$@" \
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

@test "shapes: 10,000 inherited events over 10,000 raw ones fit in 200 MB" {
	# Each 'event: Di = Ei' kept a factor for every raw event: 10,000 x 10,000 x 8
	# bytes (800 MB; 30,000 of each: 4.1 GB). Its terms are one each now. main
	# has E0 = 1 and no other cost, so D0 = E0 = 1 and D9999 = E9999 = 0.
	local f
	f=$(shape inherited 10000)
	status=0
	(
		mem_limit 200000
		exec "$NCGRIND" --dump=functions --format=tsv --events=E0,D0,D9999 "$f"
	) >"$OUT" 2>"$ERR" || status=$?
	expect_status 0
	expect_no_err
	expect_tsv <<'EOF'
function | file | object | calls | self:E0 | self:D0 | self:D9999 | incl:E0 | incl:D0 | incl:D9999
main | a.c |  | 0 | 1 | 1 | 0 | 1 | 1 | 0
EOF
}

@test "shapes: an inherited event of inherited ones is worked out from its terms" {
	# Ir 5, Dr 7: A = 5 + 2 * 7 = 19; B = 3 * A + Ir = 62; C = 0 * B + Dr = 7.
	# CEst = Ir + 10 L1m, where L1m = A counts more than Ir: 5 + 190 = 195.
	cat >"$BATS_TEST_TMPDIR/terms.callgrind" <<'EOF'
events: Ir Dr
event: A = Ir + 2 Dr
event: B = 3 A + Ir
event: C = 0 * B + Dr
event: L1m = A
fl=a.c
fn=main
1 5 7
EOF
	tsv_ok --dump=functions --events=A,B,C,CEst "$BATS_TEST_TMPDIR/terms.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:A | self:B | self:C | self:CEst | incl:A | incl:B | incl:C | incl:CEst
main | a.c |  | 0 | 19 | 62 | 7 | 195 | 19 | 62 | 7 | 195
EOF
	# L1m = Ir counts nothing but Ir: no cycle estimate (KCachegrind's rule)
	sed -i 's/^event: L1m = A$/event: L1m = Ir/' "$BATS_TEST_TMPDIR/terms.callgrind"
	ncg --dump=functions --events=CEst "$BATS_TEST_TMPDIR/terms.callgrind"
	expect_status 2
	grep -q "unknown event 'CEst'" "$ERR"
}

@test "shapes: the callers of every function read each caller's blocks once" {
	# hub1 and hub2 call g1..gN each: listing g1's callers, then g2's ... read
	# hub1's blocks, then hub2's, for every g (8,000 of them: 42 s); 2,000 ran
	# 3.9 times the instructions of 1,000.
	need_valgrind
	local a b
	a=$(instructions --dump=callers --format=tsv --function='^g' --jobs=1 "$(shape hubs 1000)")
	b=$(instructions --dump=callers --format=tsv --function='^g' --jobs=1 "$(shape hubs 2000)")
	linear "$a" "$b"
}

@test "shapes: each caller's sites stay its own when they are read for the whole report" {
	# hub1 calls g1 and g2 from its lines 1 and 2, hub2 from 3 and 4; total 12
	# (1 + 1 + 5 + 5), a call 5 of it (41.67%) and half of each g's 10
	tsv_ok --dump=callers --function='^g' "$(shape hubs 2)"
	expect_tsv <<'EOF'
function | caller | caller_file | count | incl:Ir | recorded:Ir | total_pct | function_pct | sites | mark
g1 | hub1 | a.c | 1 | 5 | 5 | 41.67 | 50.00 | a.c:1 | 
g1 | hub2 | a.c | 1 | 5 | 5 | 41.67 | 50.00 | a.c:3 | 
g2 | hub1 | a.c | 1 | 5 | 5 | 41.67 | 50.00 | a.c:2 | 
g2 | hub2 | a.c | 1 | 5 | 5 | 41.67 | 50.00 | a.c:4 | 
EOF
	# callees: hub1's in the order of its lines, then hub2's
	ncg --dump=callees --format=json --function='^hub' "$(shape hubs 2)"
	expect_status 0
	grep -o '"sites":\[[^]]*\]' "$OUT" >"$OUT.sites"
	mv "$OUT.sites" "$OUT"
	expect_out <<'EOF'
"sites":[{"file":"a.c","line":1,"address":0}]
"sites":[{"file":"a.c","line":2,"address":0}]
"sites":[{"file":"a.c","line":3,"address":0}]
"sites":[{"file":"a.c","line":4,"address":0}]
EOF
}

@test "shapes: a folded stack stops at 256 frames; one more frame holds the cost below" {
	# f0 calls f1 ... f299, each spending 1: f0..f255 are written (256 lines of
	# 1), then f0;...;f255;(stack cut at 256 frames) with f256..f299's 44. Every
	# line repeated its whole path: 2,000 calls wrote 12 MB, 10,000 289 MB.
	ncg --dump=folded "$(shape chain 300)"
	expect_status 0
	expect_no_err
	[ "$(wc -l <"$OUT")" = 257 ]
	awk '{ s += $NF } END { if (s != 300) { print "sum " s; exit 1 } }' "$OUT"
	sed -n '256p' "$OUT" | awk -F';' '{ if (NF != 256 || $NF != "f255 1") exit 1 }'
	sed -n '257p' "$OUT" | awk -F';' '{ if (NF != 257 || $256 != "f255" ||
		$NF != "(stack cut at 256 frames) 44") exit 1 }'
	# 2,000 calls: as many lines, of no more frames
	ncg --dump=folded "$(shape chain 2000)"
	expect_status 0
	[ "$(wc -l <"$OUT")" = 257 ]
	[ "$(wc -c <"$OUT")" -lt 300000 ]
	tail -n 1 "$OUT" | grep -q ';(stack cut at 256 frames) 1744$'
}

@test "shapes: folded stacks as deep as --depth asks; the report's frames stop them" {
	# --depth=5 lifts the cap to 6 frames: f0..f5 of 1, and nothing is cut
	NCGRIND_FOLDED_STACK=3 ncg --dump=folded --depth=5 "$(shape chain 8)"
	expect_status 0
	expect_out <<'EOF'
f0 1
f0;f1 1
f0;f1;f2 1
f0;f1;f2;f3 1
f0;f1;f2;f3;f4 1
f0;f1;f2;f3;f4;f5 3
EOF
	NCGRIND_FOLDED_STACK=3 ncg --dump=folded "$(shape chain 8)"
	expect_out <<'EOF'
f0 1
f0;f1 1
f0;f1;f2 1
f0;f1;f2;(stack cut at 3 frames) 5
EOF
	# 1 + 2 + 3 frames make 6 of 7; the next line has 4: the report stops there
	NCGRIND_FOLDED_FRAMES=7 ncg --dump=folded "$(shape chain 8)"
	expect_status 0
	expect_out <<'EOF'
f0 1
f0;f1 1
f0;f1;f2 1
(report cut at 7 frames) 0
EOF
}

@test "shapes: a tree down a chain opened again (:event) is one step a call, not a walk up it" {
	# t on f0 opens the hot path, the whole chain; :event builds it again and
	# opens the saved rows, each asking whether its function is on its path by
	# walking up: N^2/2 steps (10,000: 0.5 s for three :event). A function in
	# no cycle is never its own ancestor. Before: 8,000 ran 3.3 times the
	# instructions of 4,000 (1.74G, 0.53G); now 1.8 times.
	need_valgrind
	local a b keys="$BATS_TEST_TMPDIR/keys"
	printf '%s\n' '/ "^f0$" Enter' t ':event Ir' ':event Ir' ':event Ir' ':event Ir' \
		':event Ir' >"$keys"
	a=$(instructions --script="$keys" --size=100x30 --jobs=1 "$(shape chain 4000)")
	b=$(instructions --script="$keys" --size=100x30 --jobs=1 "$(shape chain 8000)")
	linear "$a" "$b"
}
