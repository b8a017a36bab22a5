#!/usr/bin/env bats
# Valid but unusual files: /work/shared/corpus/edge/, copied to test/fixtures/edge/.
# Expected values are worked out by hand from each file (the sums are written next to
# the expected output) and agree with the corpus README's descriptions.

load test_helper

E="$BATS_TEST_DIRNAME/fixtures/edge"

# spec-extended's numbers (see spec.bats): func2 700/700 called 5x, func1 100/400
# called once, main 20/820.
extended_functions() {
	expect_tsv <<'EOF'
function | file | object | calls | self:Instructions | incl:Instructions
func2 | file2.c |  | 5 | 700 | 700
func1 | file1.c |  | 1 | 100 | 400
main | file1.c |  | 0 | 20 | 820
EOF
}

# ---------------------------------------------------------------- line ends, separators

@test "edge: CRLF line ends give exactly the spec-extended result (no \\r in names)" {
	tsv_ok "$E/edge-crlf.callgrind"
	extended_functions
	tsv_ok --dump=calls "$E/edge-crlf.callgrind"
	expect_tsv <<'EOF'
caller | caller_file | callee | callee_file | count | incl:Instructions | recorded:Instructions | mark
main | file1.c | func1 | file1.c | 1 | 400 | 400 | 
main | file1.c | func2 | file2.c | 3 | 400 | 400 | 
func1 | file1.c | func2 | file2.c | 2 | 300 | 300 | 
EOF
	ncg "$E/edge-crlf.callgrind"
	expect_status 0
	refute_grep $'\r' "$OUT"
}

@test "edge: no newline after the last cost line ('20 700' still counts)" {
	tsv_ok "$E/edge-no-trailing-newline.callgrind"
	extended_functions
}

@test "edge: tabs as separators in header and cost lines" {
	# main: "0x10 5 100 7" + "+2 * 50 3" = 150/10; calls=2 to f, cost 80/8 -> incl 230/18
	# f: "0x40 9 80 8" = 80/8, called twice
	tsv_ok "$E/edge-tabs.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | self:Dr | incl:Ir | incl:Dr
main | t.c |  | 0 | 150 | 10 | 230 | 18
f | t.c |  | 2 | 80 | 8 | 80 | 8
EOF
}

@test "edge: comments and blank/whitespace-only lines everywhere; wrong totals: is a warning" {
	# main: 100/10 + 50/5 = 150/15; calls=4 to helper 400/40 -> incl 550/55
	# helper: 400/40. The file's 'totals: 950 95' (line 28) is not the sum 550/55.
	cd "$E"
	ncg --format=tsv edge-comments-blank-lines.callgrind
	expect_status 0
	expect_err <<'EOF'
edge-comments-blank-lines.callgrind:28: warning: totals: says Ir = 950 but the cost lines add up to 550; using the sum
edge-comments-blank-lines.callgrind:28: warning: totals: says Dr = 95 but the cost lines add up to 55; using the sum
EOF
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | self:Dr | incl:Ir | incl:Dr
helper | /src/a.c |  | 4 | 400 | 40 | 400 | 40
main | /src/a.c |  | 0 | 150 | 15 | 550 | 55
EOF
}

@test "edge: a comment between calls= and its cost line" {
	tsv_ok "$E/edge-comment-inside-callspec.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
f | a.c |  | 1 | 30 | 30
main | a.c |  | 0 | 10 | 40
EOF
}

# ---------------------------------------------------------------- numbers

@test "edge: hex numbers for positions, costs and the call count" {
	# main: 0x100 + 255 = 511 Ir, 0x10 + 0xff = 271 Dr; calls=0x2 to f, cost
	# 0x200/0x20 = 512/32 -> incl 1023/303. f: 0x200/0x20 = 512/32 (sorted first).
	tsv_ok "$E/edge-hex-numbers.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | self:Dr | incl:Ir | incl:Dr
f | h.c |  | 2 | 512 | 32 | 512 | 32
main | h.c |  | 0 | 511 | 271 | 1023 | 303
EOF
}

@test "edge: 64-bit values are exact (2^53+1, a 2^63 total, 2^63-1)" {
	# main Ir: 9007199254740993 (2^53+1) + 1 = 9007199254740994 (a double would say ...992)
	# main Dr: 2^62 + 2^62 = 2^63 = 9223372036854775808 (does not fit in int64)
	# leaf: 2^63-1 = 9223372036854775807 Ir, called once
	# main incl Ir: 9007199254740994 + 9223372036854775807 = 9232379236109516801
	tsv_ok "$E/edge-big-values.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | self:Dr | incl:Ir | incl:Dr
leaf | b.c |  | 1 | 9223372036854775807 | 0 | 9223372036854775807 | 0
main | b.c |  | 0 | 9007199254740994 | 9223372036854775808 | 9232379236109516801 | 9223372036854775808
EOF
	ncg --format=json "$E/edge-big-values.callgrind"
	expect_status 0
	grep -q '"totals":{"Ir":9232379236109516801,"Dr":9223372036854775808}' "$OUT"
}

@test "edge: positions 0, +0, -0 and * (line 0 is valid)" {
	# 5 + 1 + 1 + 2 = 9
	tsv_ok "$E/edge-zero-and-negative-lines.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
main | z.c |  | 0 | 9 | 9
EOF
}

# ---------------------------------------------------------------- positions, jumps, inlining

@test "edge: positions: instr only, relative addresses, cob=" {
	# 0x...401000: 3/1 + 1/0 + 4/2 + 1/0 (after the call) = 9/3; the call to memcpy
	# (cob= libc, no cfi= so the current file ???) costs 60/20 -> incl 69/23.
	# memcpy's own block 'fn=(2)' (60/20) comes without an ob= line, under
	# ob=/bin/prog: whether it is the libc memcpy that was called (KCachegrind binds
	# the id to the function of cfn=) or a memcpy of /bin/prog (spec 3.1.5: an id
	# stands for a name) is not pinned; the called one and the sums are.
	tsv_ok "$E/edge-positions-instr-only.callgrind"
	awk -F'\t' '$1 == "memcpy" && $3 == "/lib/libc.so.6" { called = $1 " " $2 " " $3 " " $4 " " $7 " " $8 }
		$1 == "0x0000000000401000" { caller = $1 " " $2 " " $3 " " $4 " " $7 " " $8 }
		$1 == "memcpy" { ir += $5; dr += $6 } NR > 1 { tir += $5; tdr += $6 }
		END { print called; print caller; print "memcpy self", ir, dr; print "total", tir, tdr }' \
		"$OUT" >"$OUT.f"
	mv "$OUT.f" "$OUT"
	expect_out <<'EOF'
memcpy ??? /lib/libc.so.6 1 60 20
0x0000000000401000 ??? /bin/prog 0 69 23
memcpy self 60 20
total 69 23
EOF
}

@test "edge: no '# callgrind format' and no positions: (defaults to line)" {
	tsv_ok "$E/edge-no-positions-line.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
main | a.c |  | 0 | 12 | 12
other | a.c |  | 0 | 3 | 3
EOF
}

@test "edge: jump=/jcnd= as callgrind 3.19 writes them (TAKEN/EXEC, '* *' lines, jfi/jfn)" {
	# loop: 1 + 100 + 100 + 1 + 1 = 203, target: 3. Jumps are not calls: no call
	# counts, no inclusive cost added. (Only the costs are checked here: target's
	# file is given both by jfi=other.c and by the fl=j.c its fn= block is under.)
	tsv_ok "$E/edge-jumps.callgrind"
	cut -f1,4- "$OUT" >"$OUT.cut" && mv "$OUT.cut" "$OUT"
	expect_tsv <<'EOF'
function | calls | self:Ir | incl:Ir
loop | 0 | 203 | 203
target | 0 | 3 | 3
EOF
	tsv_ok --dump=calls "$E/edge-jumps.callgrind"
	expect_tsv <<'EOF'
caller | caller_file | callee | callee_file | count | incl:Ir | recorded:Ir | mark
EOF
}

@test "edge: jcnd= with the spec grammar's two counts" {
	# 1 + 100 + 100 + 1 = 202
	tsv_ok "$E/edge-jumps-spec-syntax.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
loop | j.c |  | 0 | 202 | 202
EOF
}

@test "edge: fi=/fe= inlining does not split a function" {
	# main (fl=/src/main.c): Ir 5+3+40+60+2+8+1+1 = 120, Dr 1+0+10+20+0+2+0+0 = 33,
	#   calls=5 to compute costing 500/100 -> incl 620/133
	# compute: 200+300+0 = 500, 50+50+0 = 100, although part of it is in /src/vec.h
	tsv_ok "$E/edge-fi-fe-inlining.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | self:Dr | incl:Ir | incl:Dr
compute | /src/main.c | /usr/bin/prog | 5 | 500 | 100 | 500 | 100
main | /src/main.c | /usr/bin/prog | 0 | 120 | 33 | 620 | 133
EOF
}

# ---------------------------------------------------------------- calls

@test "edge: calls= cost lines with fewer costs than events (the rest is 0)" {
	# main: 100 20 10 5 1 + 10 = 110 20 10 5 1
	#   calls=3 f  '2 300'  -> 300 0 0 0 0;  calls=1 g  '3 50 7' -> 50 7 0 0 0
	#   incl = 110+300+50 = 460, 20+0+7 = 27, 10, 5, 1
	# f: 300 90 30 12 (called 3x); its incl is the larger of the call cost (300 0 0 0 0)
	#   and its own cost, per event: 300 90 30 12 0
	# g: 50 7 0 0 0 (called once)
	tsv_ok "$E/edge-calls-short-costline.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | self:Dr | self:Dw | self:Bc | self:Bcm | incl:Ir | incl:Dr | incl:Dw | incl:Bc | incl:Bcm
f | a.c |  | 3 | 300 | 90 | 30 | 12 | 0 | 300 | 90 | 30 | 12 | 0
main | a.c |  | 0 | 110 | 20 | 10 | 5 | 1 | 460 | 27 | 10 | 5 | 1
g | a.c |  | 1 | 50 | 7 | 0 | 0 | 0 | 50 | 7 | 0 | 0 | 0
EOF
	tsv_ok --dump=calls "$E/edge-calls-short-costline.callgrind"
	expect_tsv <<'EOF'
caller | caller_file | callee | callee_file | count | incl:Ir | incl:Dr | incl:Dw | incl:Bc | incl:Bcm | recorded:Ir | recorded:Dr | recorded:Dw | recorded:Bc | recorded:Bcm | mark
main | a.c | f | a.c | 3 | 300 | 0 | 0 | 0 | 0 | 300 | 0 | 0 | 0 | 0 | 
main | a.c | g | a.c | 1 | 50 | 7 | 0 | 0 | 0 | 50 | 7 | 0 | 0 | 0 | 
EOF
}

@test "edge: cfl= spelling of cfi=" {
	tsv_ok "$E/edge-cfl-spelling.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
func2 | file2.c |  | 5 | 700 | 700
func1 | file1.c |  | 1 | 100 | 400
main | file1.c |  | 0 | 20 | 820
EOF
}

# ---------------------------------------------------------------- names and blocks

@test "edge: odd names (spaces, '(below main)', UTF-8, '=', 0x..., 'N suffix)" {
	# '(below main)' is a name, not a compressed id ('(' not followed by a digit).
	# Blanks after 'fn=(5)' separate the id from the name; the trailing blanks are part
	# of the name (NoNewLineChar* in the grammar).
	# The 'N function: 60 self + a call to operator() costing 40 = 100.
	tsv_ok "$E/edge-odd-names.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>(__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, int const&)'2 | /src/dir with spaces/a b.cpp |  | 0 | 60 | 100
(anonymous namespace)::Widget::operator()(int, std::pair<int, char const*>) const | /src/dir with spaces/a b.cpp |  | 1 | 40 | 40
(below main) | /src/dir with spaces/a b.cpp |  | 0 | 5 | 5
=weird=name= | /src/dir with spaces/a b.cpp |  | 0 | 4 | 4
café_日本::für() | /src/dir with spaces/a b.cpp |  | 0 | 3 | 3
leading and trailing spaces    | /src/dir with spaces/a b.cpp |  | 0 | 2 | 2
0x00000000000109000 | /src/dir with spaces/a b.cpp |  | 0 | 1 | 1
EOF
}

@test "edge: one function in several fn= blocks is summed; a block without costs" {
	# f: 10/1 + 30/3 + 5/0 = 45/4; g: 20/2 + 1/1 = 21/3; empty_fn: no cost line
	# (whether such a function is listed, with 0, is not pinned)
	tsv_ok "$E/edge-repeated-fn-blocks.callgrind"
	drop_zero_rows
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | self:Dr | incl:Ir | incl:Dr
f | r.c |  | 0 | 45 | 4 | 45 | 4
g | r.c |  | 0 | 21 | 3 | 21 | 3
EOF
}

# ---------------------------------------------------------------- parts, header

@test "edge: two parts in one file are summed (main 130, f 90, total 220)" {
	# part 1: main 100 + call to f 50, f 50; part 2: f 40, main 30
	# main self 130, incl 130 + 50 = 180; f self 90, called once (cost 50): incl 90
	tsv_ok "$E/edge-multipart-concat.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
main | a.c |  | 0 | 130 | 180
f | a.c |  | 1 | 90 | 90
EOF
	ncg --format=json "$E/edge-multipart-concat.callgrind"
	expect_status 0
	grep -q '"parts":2,' "$OUT"
	grep -q '"totals":{"Ir":220}' "$OUT"
}

@test "edge: all header keys, desc: of unknown type, an unknown key" {
	tsv_ok "$E/edge-header-keys-unknown.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
main | a.c |  | 0 | 3 | 3
EOF
	ncg --format=json "$E/edge-header-keys-unknown.callgrind"
	expect_status 0
	# cmd: ./a.out arg1 "arg two"  (quotes escaped in JSON)
	grep -qF '"command":"./a.out arg1 \"arg two\""' "$OUT"
	grep -qF '"creator":"hand-written"' "$OUT"
}

@test "edge: event: lines after events: (order does not matter)" {
	# Ir 100+30 = 130, Dr 10+3 = 13, Sum = 143
	tsv_ok "$E/edge-event-after-events.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | self:Dr | self:Sum | incl:Ir | incl:Dr | incl:Sum
main | x.c |  | 0 | 130 | 13 | 143 | 130 | 13 | 143
EOF
}

@test "edge: inherited events with factors ('CEst = Ir + 10 I1mr + 10 * D1mr')" {
	# main self: Ir 1500, Dr 400, I1mr 10, D1mr 20; Sum = 1900, L1m = 30,
	#   CEst = 1500 + 100 + 200 = 1800
	# leaf (10 calls): 2000 800 5 30; Sum 2800, L1m 35, CEst 2000 + 50 + 300 = 2350
	# main incl = self + leaf: 3500 1200 15 50 4700 65 4150
	tsv_ok "$E/edge-event-longnames-inherited.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | self:Dr | self:I1mr | self:D1mr | self:Sum | self:L1m | self:CEst | incl:Ir | incl:Dr | incl:I1mr | incl:D1mr | incl:Sum | incl:L1m | incl:CEst
leaf | /src/m.c |  | 10 | 2000 | 800 | 5 | 30 | 2800 | 35 | 2350 | 2000 | 800 | 5 | 30 | 2800 | 35 | 2350
main | /src/m.c |  | 0 | 1500 | 400 | 10 | 20 | 1900 | 30 | 1800 | 3500 | 1200 | 15 | 50 | 4700 | 65 | 4150
EOF
}

# ---------------------------------------------------------------- summary / totals

@test "edge: summary: larger than totals: is allowed (no message; totals are the sum)" {
	# main 700 100 50 + work (2 calls) 600 100 20 = 1300 200 70 = the totals: line;
	# summary: 2000 300 100 may be larger (spec 3.2.2)
	tsv_ok "$E/edge-summary-and-totals.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | self:Dr | self:Dw | incl:Ir | incl:Dr | incl:Dw
main | p.c |  | 0 | 700 | 100 | 50 | 1300 | 200 | 70
work | p.c |  | 2 | 600 | 100 | 20 | 600 | 100 | 20
EOF
	ncg --format=json "$E/edge-summary-and-totals.callgrind"
	grep -q '"totals":{"Ir":1300,"Dr":200,"Dw":70}' "$OUT"
}

@test "edge: summary: only (5000, costs add up to 3000): totals are the sum" {
	tsv_ok "$E/edge-summary-only.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
main | a.c |  | 0 | 3000 | 3000
EOF
	ncg --format=json "$E/edge-summary-only.callgrind"
	grep -q '"totals":{"Ir":3000}' "$OUT"
}

@test "edge: totals: only, matching the sum: no message" {
	tsv_ok "$E/edge-totals-only.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
main | a.c |  | 0 | 3000 | 3000
EOF
}

@test "edge: totals: 2999 but costs add up to 3000: a warning at line 7, exit 0" {
	cd "$E"
	ncg --format=tsv edge-totals-mismatch.callgrind
	expect_status 0
	expect_err <<'EOF'
edge-totals-mismatch.callgrind:7: warning: totals: says Ir = 2999 but the cost lines add up to 3000; using the sum
EOF
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
main | a.c |  | 0 | 3000 | 3000
EOF
}

@test "edge: summary: smaller than the sum of the cost lines is a warning (hand-made)" {
	# x-summary-smaller: summary: 100 50, cost lines 150 20. summary: may be larger than
	# the sum (spec 3.2.2), not smaller: a warning for Ir only, at line 3; exit 0
	cd "$E"
	ncg --format=tsv x-summary-smaller.callgrind
	expect_status 0
	expect_err <<'EOF2'
x-summary-smaller.callgrind:3: warning: summary: says Ir = 100 but the cost lines add up to 150; using the sum
EOF2
	expect_tsv <<'EOF2'
function | file | object | calls | self:Ir | self:Dr | incl:Ir | incl:Dr
main | a.c |  | 0 | 150 | 20 | 150 | 20
EOF2
}
