#!/usr/bin/env bats
# Inclusive costs under recursion, on hand-made fixtures (test/fixtures/recursion/,
# each explains its call tree and per-activation costs in its comments).
#
# The rule (README, "Inclusive cost and recursion"): cycles are the strongly
# connected components of the call graph; calls inside a component never count;
#   incl(f) = max(in(f), self(f) + out(f))
# with in(f) the cost of the calls to f from outside its component and out(f) the
# cost of the calls from f to outside it; no inclusive cost above the total.
# `calls` counts every call to a function, recursive ones included.

load test_helper

R="$BATS_TEST_DIRNAME/fixtures/recursion"

@test "recursion: direct (f calls f): incl(f) = the cost of the call from main" {
	# f: self 40, called 1 (main) + 3 (itself) = 4 times; in(f) = 60 (main -> f);
	#    self + out = 40 + 20 (g) = 60. Counting f -> f (120) would give 180 > total 70.
	# g: 2 calls, 20. main: 10 + 60 = 70 = the total.
	tsv_ok "$R/direct.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
f | r.c |  | 4 | 40 | 60
g | r.c |  | 2 | 20 | 20
main | r.c |  | 0 | 10 | 70
EOF
}

@test "recursion: direct: the calls report shows a call's share, and keeps what is recorded" {
	# one row per pair, the counts and costs of the calls= lines, by the cost
	# shown, largest first. f: incl 60, self 40, calls f -> f 120 (recorded:
	# each nested level counted again) and f -> g 20. With cycles on, f -> f is
	# inside f: spent(f) = max(60, 40 + 20) = 60, so f -> g is 20 * 60 / 60 = 20;
	# f -> f is its share of all f spends: 120 * 60 / (40 + 120 + 20) = 40.
	tsv_ok --dump=calls "$R/direct.callgrind"
	expect_tsv <<'EOF'
caller | caller_file | callee | callee_file | count | incl:Ir | recorded:Ir | mark
main | r.c | f | r.c | 1 | 60 | 60 | 
f | r.c | f | r.c | 3 | 40 | 120 | recursive
f | r.c | g | r.c | 2 | 20 | 20 | 
EOF
}

@test "recursion: mutual (a <-> b) is one cycle" {
	# cycle {a, b}: in = main -> a 37; self 20 + 10, out = b -> leaf 7.
	# a: in(a) = 37, self + out = 20 + 0 -> 37; called by main and by b: 2 calls
	# b: in(b) = 0 (only a calls b), self + out = 10 + 7 = 17; 2 calls (from a)
	# leaf 7 (1 call); main 3 + 37 = 40 = the total
	tsv_ok "$R/mutual.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
a | m.c |  | 2 | 20 | 37
b | m.c |  | 2 | 10 | 17
leaf | m.c |  | 1 | 7 | 7
main | m.c |  | 0 | 3 | 40
EOF
}

@test "recursion: mutual: cycle members are marked in text and json" {
	ncg "$R/mutual.callgrind"
	expect_status 0
	assert_grep 'm.c:a <cycle 1>' "$OUT"
	assert_grep 'm.c:b <cycle 1>' "$OUT"
	refute_grep 'm.c:(leaf|main) <cycle' "$OUT"
	ncg --format=json "$R/mutual.callgrind"
	expect_status 0
	assert_grep '"function":"a","file":"m.c","object":"","calls":2,"cycle":1,' "$OUT"
	assert_grep '"function":"b","file":"m.c","object":"","calls":2,"cycle":1,' "$OUT"
	assert_grep '"function":"leaf","file":"m.c","object":"","calls":1,"cycle":0,' "$OUT"
	assert_grep '"function":"main","file":"m.c","object":"","calls":0,"cycle":0,' "$OUT"
}

@test "recursion: a 3-cycle a -> b -> c -> a entered at two members" {
	# cycle {a, b, c}: in = main -> a 19 + main -> c 3 = 22 = self 8+6+6 + out 2.
	# a: in 19, self + out 8 + 0 -> 19; calls: main 1 + c 1 = 2
	# b: in 0, self + out 6 + 0 -> 6; calls: 2 (from a)
	# c: in 3, self + out 6 + 2 (leaf) = 8 -> 8; calls: main 1 + b 2 = 3
	# leaf: 2 calls, 2; main: 1 + 19 + 3 = 23 = the total
	tsv_ok "$R/ring.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
a | ring.c |  | 2 | 8 | 19
b | ring.c |  | 2 | 6 | 6
c | ring.c |  | 3 | 6 | 8
leaf | ring.c |  | 2 | 2 | 2
main | ring.c |  | 0 | 1 | 23
EOF
}

@test "recursion: 3-cycle: the calls report" {
	# each call scaled by its caller's incl / spent, spent = max(incl, self + calls):
	# a: 19 / max(19, 8 + 21 = 29): a -> b 21 * 19 / 29 = 13.76 -> 14
	# b: 6 / max(6, 6 + 15 = 21): b -> c 15 * 6 / 21 = 4.29 -> 4
	# c: 8 / max(8, 6 + 10 + 2 = 18): c -> a 10 * 8 / 18 = 4.44 -> 4,
	#    c -> leaf 2 * 8 / 18 = 0.89 -> 1
	# main recurses nowhere: its calls as recorded
	tsv_ok --dump=calls "$R/ring.callgrind"
	expect_tsv <<'EOF'
caller | caller_file | callee | callee_file | count | incl:Ir | recorded:Ir | mark
main | ring.c | a | ring.c | 1 | 19 | 19 | 
a | ring.c | b | ring.c | 2 | 14 | 21 | recursive
b | ring.c | c | ring.c | 2 | 4 | 15 | recursive
c | ring.c | a | ring.c | 1 | 4 | 10 | recursive
main | ring.c | c | ring.c | 1 | 3 | 3 | 
c | ring.c | leaf | ring.c | 2 | 1 | 2 | 
EOF
}

@test "recursion: incl is the larger of in(f) and self + out (calls=0 of partial dumps)" {
	# f: called by a calls=0 line (count 0, cost 50): in 50, self + out 30 + 20 = 50
	# g: called once at cost 5 but its own lines cost 30: max(5, 30) = 30
	# h: 2 calls, 20; main: 2 + 50 + 5 = 57 (total 82). f and g tie on self 30: by name
	tsv_ok "$R/partial.callgrind"
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
f | p.c |  | 0 | 30 | 50
g | p.c |  | 1 | 30 | 30
h | p.c |  | 2 | 20 | 20
main | p.c |  | 0 | 2 | 57
EOF
}

@test "recursion: call costs above the total are cut to the total, with a warning" {
	# main 5 + f 5 = 10, but the call main -> f says 1000: f = max(1000, 5),
	# main = 5 + 1000 = 1005, both cut to 10 (the excess: 1005 - 10 = 995)
	cd "$R"
	ncg --format=tsv inconsistent.callgrind
	expect_status 0
	expect_err <<'EOF'
inconsistent.callgrind: warning: calls cost more Ir than the whole profile (by up to 995); inclusive costs are capped at the total
EOF
	expect_tsv <<'EOF'
function | file | object | calls | self:Ir | incl:Ir
f | i.c |  | 1 | 5 | 10
main | i.c |  | 0 | 5 | 10
EOF
}

@test "recursion: no inclusive cost exceeds the total (fixtures and a real recursive profile)" {
	# For every function and every event: incl <= the sum of the self column.
	# real/recur-default has f'2 self-recursion, a 2-cycle and a 3-cycle, where naive
	# sums go up to 25742% of the total.
	local f
	for f in "$R"/direct.callgrind "$R"/mutual.callgrind "$R"/ring.callgrind \
		"$R"/partial.callgrind "$FIX/oracle/recur-default.callgrind"; do
		ncg --format=tsv "$f"
		expect_status 0
		awk -F'\t' -v file="$f" '
			NR == 1 { for (i = 1; i <= NF; i++) {
					if ($i ~ /^self:/) self[substr($i, 6)] = i
					if ($i ~ /^incl:/) incl[substr($i, 6)] = i }
				next }
			{ rows[NR] = $0; for (e in self) total[e] += $(self[e]) }
			END {
				bad = 0
				for (r in rows) {
					n = split(rows[r], f, "\t")
					for (e in incl) if (f[incl[e]] + 0 > total[e]) {
						print file ": " f[1] " incl:" e " " f[incl[e]] " > total " total[e]
						bad = 1 }
				}
				if (NR < 2) { print file ": no functions"; bad = 1 }
				exit bad
			}' "$OUT"
	done
}

@test "recursion: calls counts recursive calls too (real/recur-default fib'2)" {
	# In the profile fib'2 is compressed id (547): 'calls=1' twice from fib (costs
	# 216,460 + 133,772 = 350,232) and 'calls=10944' twice from itself: 21,890 calls.
	# Re-count them from the file with awk, independently of ncgrind:
	local n
	n=$(awk '/^cfn=/ { c = $0 }
		/^calls=/ && c ~ /^cfn=\(547\)/ { split($1, a, "="); n += a[2] }
		END { print n }' "$FIX/oracle/recur-default.callgrind")
	[ "$n" = 21890 ]
	# fib'2's inclusive cost is the cost of the two calls from fib, 350,232, which is
	# also its self cost (it calls nothing else); fib: 20 + 350,232 = 350,252.
	ncg --format=tsv "$FIX/oracle/recur-default.callgrind"
	awk -F'\t' '$1 == "fib'\''2" || $1 == "fib" { print $1, $4, $5, $6 }' "$OUT" >"$OUT.f"
	mv "$OUT.f" "$OUT"
	expect_out <<'EOF'
fib'2 21890 350232 350232
fib 1 20 350252
EOF
}

@test "recursion: an excess that summary: accounts for is cut without a warning" {
	# excess-summary: main 5 + f 5 = 10, the call main -> f costs 7, summary: 12.
	# f = max(7, 5) = 7; main = 5 + 7 = 12, cut to the total 10; summary: covers the
	# excess (12 >= 12): no warning
	tsv_ok "$R/excess-summary.callgrind"
	expect_tsv <<'EOF2'
function | file | object | calls | self:Ir | incl:Ir
f | e.c |  | 1 | 5 | 7
main | e.c |  | 0 | 5 | 10
EOF2
}
