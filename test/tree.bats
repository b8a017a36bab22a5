#!/usr/bin/env bats
# Batch call views: --dump=tree, --dump=callers, --dump=callees.
# Expected values worked out by hand from the fixtures:
#   spec-extended (spec 3.1.4): main self 20, calls func1 1x (400) and func2 3x
#   (400) at line 16; func1 self 100, calls func2 2x (300) at line 51; func2 self
#   700. incl: main 820, func1 400, func2 700.
#   A tree node's cost is its call's cost scaled by the share of its parent's
#   function that the path holds: cost(child) = call * cost(parent) / spent(parent),
#   spent = incl, or self + calls where recursion makes those more (calltree.h).

load test_helper

X="$BATS_TEST_DIRNAME/fixtures/spec/spec-extended.callgrind"

@test "tree: main's callees, each call with its share of the root and of its parent" {
	# func2 under func1: 300 * 400/400 = 300 = 36.59% of 820, 75.00% of 400.
	# func1 and func2 cost 400 each: equal costs keep the order of the file.
	ncg --dump=tree --root='^main$' --format=tsv "$X"
	expect_status 0
	expect_tsv <<'EOF2'
depth | function | file | calls | incl:Instructions | root_pct | parent_pct | mark
0 | main | file1.c | 0 | 820 | 100.00 | 100.00 | 
1 | func1 | file1.c | 1 | 400 | 48.78 | 48.78 | 
2 | func2 | file2.c | 2 | 300 | 36.59 | 75.00 | 
1 | func2 | file2.c | 3 | 400 | 48.78 | 48.78 | 
EOF2
}

@test "tree: inverted, func2's callers upward, scaled by the path" {
	# func2 700: main 400 (57.14%), func1 300 (42.86%); main above func1:
	# main->func1 costs 400, scaled by 300/400 (func1's share on this path) = 300.
	ncg --dump=tree --root=func2 --inverted --format=tsv "$X"
	expect_status 0
	expect_tsv <<'EOF2'
depth | function | file | calls | incl:Instructions | root_pct | parent_pct | mark
0 | func2 | file2.c | 0 | 700 | 100.00 | 100.00 | 
1 | main | file1.c | 3 | 400 | 57.14 | 57.14 | 
1 | func1 | file1.c | 2 | 300 | 42.86 | 42.86 | 
2 | main | file1.c | 1 | 300 | 42.86 | 100.00 | 
EOF2
}

@test "tree: --depth cuts the levels, --threshold folds small branches" {
	ncg --dump=tree --root='^main$' --depth=1 --format=tsv "$X"
	expect_tsv <<'EOF2'
depth | function | file | calls | incl:Instructions | root_pct | parent_pct | mark
0 | main | file1.c | 0 | 820 | 100.00 | 100.00 | 
1 | func1 | file1.c | 1 | 400 | 48.78 | 48.78 | 
1 | func2 | file2.c | 3 | 400 | 48.78 | 48.78 | 
EOF2
	# 50% of 820 is 410: both calls (400 each) fold into one line of 800
	ncg --dump=tree --root='^main$' --threshold=50 --format=tsv "$X"
	expect_tsv <<'EOF2'
depth | function | file | calls | incl:Instructions | root_pct | parent_pct | mark
0 | main | file1.c | 0 | 820 | 100.00 | 100.00 | 
1 | (2 more) |  | 0 | 800 | 97.56 | 97.56 | more
EOF2
}

@test "tree: top-down from the entry points; text form indents each level" {
	# main is the only function nothing calls
	ncg --dump=tree "$X"
	expect_status 0
	expect_out <<'EOF2'
Instructions: inclusive cost of each call, folded under 1.00% of the root
           incl   %root  %parent      calls  function, then its callees
            820 100.00% 100.00%             main
            400  48.78%  48.78%          1    func1
            300  36.59%  75.00%          2      func2
            400  48.78%  48.78%          3    func2
EOF2
}

@test "tree: recursion is marked, not expanded, and never costs more than its caller" {
	# example.callgrind: phase_fib calls fib once (350,252); fib calls fib'2 twice
	# at line 16 (216,460 + 133,772 = 350,232); fib'2 (self 350,232) calls itself
	# 21,888 times for 4,107,968 Ir counted again at every level (callgrind_annotate
	# --inclusive=yes: 4,458,200 = 350,232 + 4,107,968). With cycle detection on the
	# call to itself is inside fib'2: a leaf.
	ncg --dump=tree --root='^fib$' --format=tsv "$FIX/example.callgrind"
	expect_status 0
	expect_tsv <<'EOF2'
depth | function | file | calls | incl:Ir | root_pct | parent_pct | mark
0 | fib | /home/dev/corpus/src/recur.c | 0 | 350252 | 100.00 | 100.00 | 
1 | fib'2 | /home/dev/corpus/src/recur.c | 2 | 350232 | 99.99 | 99.99 | 
EOF2
	# Off: the call is followed, marked recursive, and costs its share of what
	# fib'2 spends (self + calls, 4,458,200, more than its inclusive cost):
	# 350,232 * 4,107,968 / 4,458,200 = 322,718.1 (92.14% of 350,252 and of 350,232)
	ncg --dump=tree --root='^fib$' --format=tsv --no-cycles "$FIX/example.callgrind"
	expect_status 0
	expect_tsv <<'EOF2'
depth | function | file | calls | incl:Ir | root_pct | parent_pct | mark
0 | fib | /home/dev/corpus/src/recur.c | 0 | 350252 | 100.00 | 100.00 | 
1 | fib'2 | /home/dev/corpus/src/recur.c | 2 | 350232 | 99.99 | 99.99 | 
2 | fib'2 | /home/dev/corpus/src/recur.c | 21888 | 322718 | 92.14 | 92.14 | recursive
EOF2
}

@test "callers and callees: count, cost of the calls, shares, and where they are" {
	ncg --dump=callers --function=func2 --format=tsv "$X"
	expect_status 0
	# 400 of 820 total = 48.78%, of func2's 700 = 57.14%; 300: 36.59%, 42.86%
	expect_tsv <<'EOF2'
function | caller | caller_file | count | incl:Instructions | recorded:Instructions | total_pct | function_pct | sites | mark
func2 | main | file1.c | 3 | 400 | 400 | 48.78 | 57.14 | file1.c:16 | 
func2 | func1 | file1.c | 2 | 300 | 300 | 36.59 | 42.86 | file1.c:51 | 
EOF2
	ncg --dump=callees --function='^main$' --format=tsv "$X"
	expect_tsv <<'EOF2'
function | callee | callee_file | count | incl:Instructions | recorded:Instructions | total_pct | function_pct | sites | mark
main | func1 | file1.c | 1 | 400 | 400 | 48.78 | 48.78 | file1.c:16 | 
main | func2 | file2.c | 3 | 400 | 400 | 48.78 | 48.78 | file1.c:16 | 
EOF2
}

@test "callers: text form; fib'2 calls itself, marked recursive, at its share" {
	# fib'2 (self and incl 350,232) calls itself for 4,107,968 Ir as recorded
	# (each level counted again): the call is its share of all fib'2 spends,
	# 4,107,968 * 350,232 / (350,232 + 4,107,968) = 322,718.1, as the tree
	# with cycles off shows it; 322,718 / 13,143,514 = 2.46%, / 350,232 = 92.14%
	ncg --dump=callers --function="^fib'2$" "$FIX/example.callgrind"
	expect_status 0
	assert_grep "callers of fib'2  (incl 350,232 = 2.66%, called 21,890 times)" "$OUT"
	assert_grep "        322,718   2.46%  92.14%     21,888  fib'2  [recursive]  at /home/dev/corpus/src/recur.c:16" "$OUT"
	assert_grep "        350,232   2.66% 100.00%          2  fib  at /home/dev/corpus/src/recur.c:16" "$OUT"
}

@test "call views: errors are messages, exit 1" {
	ncg --dump=callers "$X"
	expect_status 1
	expect_err <<'EOF2'
ncgrind: --dump=callers needs --function=REGEX
EOF2
	ncg --dump=tree --root='(' "$X"
	expect_status 1
	assert_grep "ncgrind: bad regular expression '('" "$ERR"
	ncg --dump=tree --root=nothing_like_this "$X"
	expect_status 1
	expect_err <<'EOF2'
ncgrind: no function matches 'nothing_like_this'
EOF2
	ncg --dump=tree --threshold=101 "$X"
	expect_status 2
}

@test "tree: mutual recursion (a cycle) is one node, or followed call by call and cut where it repeats" {
	# example.callgrind, from callgrind_annotate: is_even 7,265,400 incl, is_odd
	# 7,260,204 incl (self 5,187), so is_odd -> is_even'2 costs 7,255,017 (399x).
	# is_even'2 (self 3,628,804) and is_odd'2 (self 3,626,213) call each other
	# (cycle 2); --inclusive=yes sums the calls into each: is_odd'2 3,379,857,696
	# (all from is_even'2), is_even'2 3,383,486,500 (7,255,017 from is_odd, so
	# 3,376,231,483 from is_odd'2).
	# On: is_odd calls <cycle 2> (7,255,017: 99.86% of the root, 99.93% of is_odd);
	# the cycle spends its members' self costs (they add up to 7,255,017) and
	# calls nothing outside: is_even'2 3,628,804 (49.95%, 50.02%), is_odd'2
	# 3,626,213 (49.91%, 49.98%).
	ncg --dump=tree --root='^is_even$' --threshold=0 --format=tsv "$FIX/example.callgrind"
	expect_status 0
	expect_tsv <<'EOF2'
depth | function | file | calls | incl:Ir | root_pct | parent_pct | mark
0 | is_even | /home/dev/corpus/src/recur.c | 0 | 7265400 | 100.00 | 100.00 | 
1 | is_odd | /home/dev/corpus/src/recur.c | 399 | 7260204 | 99.93 | 99.93 | 
2 | <cycle 2> |  | 399 | 7255017 | 99.86 | 99.93 | cycle
3 | is_even'2 | /home/dev/corpus/src/recur.c | 0 | 3628804 | 49.95 | 50.02 | member
3 | is_odd'2 | /home/dev/corpus/src/recur.c | 0 | 3626213 | 49.91 | 49.98 | member
EOF2
	ncg --dump=tree --root='^is_even$' --threshold=0 "$FIX/example.callgrind"
	assert_grep "    <cycle 2>" "$OUT"
	assert_grep "is_even'2 <cycle 2>  [self]" "$OUT"
	# Off: is_even'2 spends 3,628,804 + 3,379,857,696 = 3,383,486,500, so its call
	# to is_odd'2 costs 7,255,017 * 3,379,857,696 / 3,383,486,500 = 7,247,236
	# (99.75%, 99.89%); is_odd'2 spends 3,626,213 + 3,376,231,483 = 3,379,857,696,
	# its call back 7,247,236 * 3,376,231,483 / 3,379,857,696 = 7,239,460 (99.64%,
	# 99.89%), and is_even'2 is on the path: recursive.
	ncg --dump=tree --root='^is_even$' --threshold=0 --format=tsv --no-cycles "$FIX/example.callgrind"
	expect_status 0
	expect_tsv <<'EOF2'
depth | function | file | calls | incl:Ir | root_pct | parent_pct | mark
0 | is_even | /home/dev/corpus/src/recur.c | 0 | 7265400 | 100.00 | 100.00 | 
1 | is_odd | /home/dev/corpus/src/recur.c | 399 | 7260204 | 99.93 | 99.93 | 
2 | is_even'2 | /home/dev/corpus/src/recur.c | 399 | 7255017 | 99.86 | 99.93 | 
3 | is_odd'2 | /home/dev/corpus/src/recur.c | 279001 | 7247236 | 99.75 | 99.89 | 
4 | is_even'2 | /home/dev/corpus/src/recur.c | 278801 | 7239460 | 99.64 | 99.89 | recursive
EOF2
	ncg --dump=tree --root='^is_even$' --threshold=0 --no-cycles "$FIX/example.callgrind"
	assert_grep "is_even'2  [recursive]" "$OUT"
	refute_grep "<cycle" "$OUT"
}

@test "tree: the fold row that makes the node array grow is kept (was a use-after-free)" {
	# fold-realloc.callgrind: main (self 1) calls f1..f14 (1,000 each) and f15 (1):
	# total 14,002; f15 is under 1% of it and folds into "(1 more, 0.01%)", the 17th
	# node, which moved the array under a pointer (ASan: heap-use-after-free in
	# link_children; the release build lost the row).
	ncg --dump=tree "$FIX/recursion/fold-realloc.callgrind"
	expect_status 0
	tail -2 "$OUT" >"$OUT.tail"
	mv "$OUT.tail" "$OUT"
	expect_out <<'EOF2'
          1,000   7.14%   7.14%          1    f14
              1   0.01%   0.01%               (1 more, 0.01%)
EOF2
}

@test "tree: hide joins frames through a cycle of hidden functions once each, not on every path" {
	# hide-clique.callgrind, hide ^h: main's children are what hA, hB and hC call
	# apart from one another: leaf, reached through each of the three (each hidden
	# function walked once) and joined into one row -> main and leaf
	ncg --command='hide ^h' --dump=tree --format=tsv "$FIX/recursion/hide-clique.callgrind"
	expect_status 0
	cut -f1,2 "$OUT" | tail -n +2 >"$OUT.f"
	mv "$OUT.f" "$OUT"
	expect_tsv <<'EOF2'
0 | main
1 | leaf
EOF2
}

@test "tree: a hidden function's call to itself stays inside its frame; T stays from the entry points" {
	# main (self 1) calls h (hidden) once for 60; h (self 5 + 5) calls itself once
	# (40) and leaf twice (15 + 35 = 50); leaf self 50; total 61. main's only child
	# is leaf, at h's share of the call (60 / h's incl 60 = 1) x 50; the call of h
	# to itself is inside h's frame, not a child of main
	printf '%s\n' '# callgrind format' 'events: Ir' 'fn=main' '1 1' 'cfn=h' 'calls=1 1' '1 60' \
		'fn=h' '1 10' 'cfn=h' 'calls=1 1' '1 40' 'cfn=leaf' 'calls=2 1' '1 50' \
		'fn=leaf' '1 50' >"$BATS_TEST_TMPDIR/selfhide.callgrind"
	ncg --command='hide ^h$' --dump=tree --root='^main$' --format=tsv "$BATS_TEST_TMPDIR/selfhide.callgrind"
	expect_status 0
	cut -f1,2,5 "$OUT" | tail -n +2 >"$OUT.f"
	mv "$OUT.f" "$OUT"
	expect_tsv <<'EOF2'
0 | main | 61
1 | leaf | 50
EOF2
	# the browser: T on example.callgrind (one entry point), then a rebuild
	# (:threshold) keeps the tree from the entry points
	local keys="$BATS_TEST_TMPDIR/keys"
	printf '%s\n' T ':threshold 2' ":save-screen $BATS_TEST_TMPDIR/top" >"$keys"
	"$NCGRIND" --script="$keys" "$FIX/example.callgrind"
	head -1 "$BATS_TEST_TMPDIR/top" >"$OUT"
	expect_out <<'EOF2'
ncgrind: call tree from the entry points, threshold 2%
EOF2
}

@test "tree: a thread's clone is an entry point, at the cost its caller does not cover" {
	# thread.callgrind: clone costs 9,100 inclusive, its caller pthread_create covers
	# 200: 8,900 (95.70% of 9,300) are the thread's own, from no caller. main is the
	# other entry point, 400 (4.30%): the roots add up to the total. start_thread
	# under clone: 9,000 x 8,900 / 9,100 = 8,802.2 (94.65% of 9,300, 98.90% of clone);
	# pthread_create under main: 300 (3.23%, 75.00%). Before, main was the only
	# entry point, and the thread (95.7%) was not in the tree.
	ncg --dump=tree --depth=1 --format=tsv "$FIX/recursion/thread.callgrind"
	expect_status 0
	cut -f1,2,5,6,7 "$OUT" | tail -n +2 >"$OUT.f"
	mv "$OUT.f" "$OUT"
	expect_tsv <<'EOF2'
0 | clone | 8900 | 95.70 | 95.70
1 | start_thread | 8802 | 94.65 | 98.90
0 | main | 400 | 4.30 | 4.30
1 | pthread_create | 300 | 3.23 | 75.00
EOF2
}

@test "tree: deep text trees write the depth past 40 levels; recursion is found at any depth" {
	# d0 -> d1 -> ... -> d59 -> d0: 60 calls in a chain, each costing one less
	# than its caller; d59 calls d0 again: one cycle of 60, and d0 at depth 60 is
	# recursive.
	# Text: two blanks a level up to 40, then "[41]" right-aligned in those 79
	# columns and a blank, so that the names line up with level 40's.
	awk 'BEGIN { print "# callgrind format"; print "events: Ir"; print "fl=s.c"
		for (i = 0; i < 60; i++)
			printf "fn=d%d\n1 1\ncfn=d%d\ncalls=1 1\n1 %d\n", i, (i + 1) % 60, 1000059 - i
	}' >"$BATS_TEST_TMPDIR/chain.callgrind"
	ncg --dump=tree --root='^d0$' --no-cycles "$BATS_TEST_TMPDIR/chain.callgrind"
	expect_status 0
	# rows 3.. are depths 0..60; the name starts after 15+1+7+1+7+1+10+2 = 44 columns
	sed -n '43p;44p;63p' "$OUT" | cut -c 45- >"$OUT.f"
	mv "$OUT.f" "$OUT"
	expect_out <<EOF2
$(printf '%80s' '')d40
$(printf '%75s' '')[41] d41
$(printf '%75s' '')[60] d0  [recursive]
EOF2
	ncg --dump=tree --root='^d0$' --format=tsv --no-cycles "$BATS_TEST_TMPDIR/chain.callgrind"
	tail -1 "$OUT" | cut -f1,2,8 >"$OUT.f"
	mv "$OUT.f" "$OUT"
	expect_tsv <<'EOF2'
60 | d0 | recursive
EOF2
}

@test "callees: the places of each callee's calls, when the callees' calls interleave" {
	# main calls a at line 1, b at line 2, a again at line 3: a's places are 1
	# and 3 (in that order), b's is 2 (the caller's blocks are read once for all)
	printf '%s\n' '# callgrind format' 'events: Ir' 'fl=s.c' 'fn=main' '1 1' \
		'cfn=a' 'calls=1 10' '1 5' 'cfn=b' 'calls=2 20' '2 8' 'cfn=a' 'calls=3 10' '3 6' \
		'fn=a' '10 11' 'fn=b' '20 8' >"$BATS_TEST_TMPDIR/inter.callgrind"
	ncg --dump=callees --function='^main$' --format=tsv "$BATS_TEST_TMPDIR/inter.callgrind"
	expect_status 0
	cut -f2,4,5,9 "$OUT" | tail -n +2 >"$OUT.f"
	mv "$OUT.f" "$OUT"
	expect_tsv <<'EOF2'
a | 4 | 11 | s.c:1,s.c:3
b | 2 | 8 | s.c:2
EOF2
}

@test "functions: with cycle detection off, a member of a cycle counts the cycle again (capped), no <cycle N>" {
	# example.callgrind (callgrind_annotate: total 13,143,514; is_even'2 self
	# 3,628,804, called from is_odd for 7,255,017 and from is_odd'2 for
	# 3,376,231,483). On: is_even'2 is costed with its cycle, 7,255,017, and
	# marked <cycle 2>. Off: only its calls to itself would be left out, so
	# the calls from is_odd'2 count: more than the total, cut to 13,143,514.
	# fib'2 only calls itself: 350,232 either way.
	ncg --dump=functions "$FIX/example.callgrind"
	assert_grep " 7,255,017 (55.20%)   3,628,804 (27.61%)  279,200  /home/dev/corpus/src/recur.c:is_even'2 <cycle 2>" "$OUT"
	ncg --dump=functions --no-cycles "$FIX/example.callgrind"
	expect_status 0
	assert_grep "13,143,514 (100.0%)   3,628,804 (27.61%)  279,200  /home/dev/corpus/src/recur.c:is_even'2" "$OUT"
	assert_grep "   350,232 ( 2.66%)     350,232 ( 2.66%)   21,890  /home/dev/corpus/src/recur.c:fib'2" "$OUT"
	refute_grep "<cycle" "$OUT"
	# the same from --command, and in json the cycle is 0
	ncg --dump=functions --format=json --command='set cycles off' "$FIX/example.callgrind"
	refute_grep '"cycle":[1-9]' "$OUT"
	ncg --dump=functions --format=json "$FIX/example.callgrind"
	assert_grep '"cycle":2' "$OUT"
	# the browser's table follows @
	local keys="$BATS_TEST_TMPDIR/keys"
	printf '%s\n' ":goto ^is_even'2\$" ":save-screen $BATS_TEST_TMPDIR/on" @ ":goto ^is_even'2\$" \
		":save-screen $BATS_TEST_TMPDIR/off" >"$keys"
	"$NCGRIND" --script="$keys" --size=100x30 "$FIX/example.callgrind"
	grep "is_even'2" "$BATS_TEST_TMPDIR/on" | grep -q "<cycle 2>"
	grep "is_even'2" "$BATS_TEST_TMPDIR/off" | grep -q "^13,143,514"
	refute_grep "<cycle" "$BATS_TEST_TMPDIR/off"
}

# ------------------------------------------------------------- json (issue 27)

@test "tree: json, one object, the tree nested as the tree" {
	# the numbers of the first test above, each node with its children
	cd "$(dirname "$X")"
	ncg --dump=tree --root='^main$' --format=json spec-extended.callgrind
	expect_status 0
	expect_no_err
	expect_out <<'EOF2'
{"file":"spec-extended.callgrind","event":"Instructions","filters":null,"threshold":1.00,"total":820,"inverted":false,"trees":[
{"function":"main","file":"file1.c","cycle":0,"calls":0,"incl":820,"root_pct":100.00,"parent_pct":100.00,"mark":"","children":[{"function":"func1","file":"file1.c","cycle":0,"calls":1,"incl":400,"root_pct":48.78,"parent_pct":48.78,"mark":"","children":[{"function":"func2","file":"file2.c","cycle":0,"calls":2,"incl":300,"root_pct":36.59,"parent_pct":75.00,"mark":"","children":[]}]},{"function":"func2","file":"file2.c","cycle":0,"calls":3,"incl":400,"root_pct":48.78,"parent_pct":48.78,"mark":"","children":[]}]}
],"cut_at":null}
EOF2
}

# json_as_rows JSON: the json tree flattened depth first into the tsv's rows
# (depth, function, file, calls, incl, root_pct, parent_pct, mark), to compare
# with --format=tsv; names as tsv escapes them (\t, \n, \\)
json_as_rows() {
	python3 - "$1" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8", errors="surrogateescape"))
assert set(d) == {"file", "event", "filters", "threshold", "total", "inverted", "trees", "cut_at"}, d.keys()
out = sys.stdout.buffer
def esc(s):
    b = s.encode("utf-8", "surrogateescape")
    return b.replace(b"\\", b"\\\\").replace(b"\t", b"\\t").replace(b"\n", b"\\n")
def walk(n, depth):
    out.write(b"%d\t%s\t%s\t%d\t%d\t%.2f\t%.2f\t%s\n" % (depth, esc(n["function"]),
        esc(n["file"] or ""), n["calls"], n["incl"], n["root_pct"], n["parent_pct"],
        n["mark"].encode()))
    for c in n["children"]:
        walk(c, depth + 1)
for t in d["trees"]:
    walk(t, 0)
EOF2
}

# json_rows_agree FILE DIR: the tree reports of FILE as tsv and as json, under
# four sets of options, compared row by row (in DIR); prints what differs and
# leaves in DIR/n the rows compared
json_rows_agree() {
	local f=$1 dir=$2 args n=0
	for args in "--threshold=0.1" "--threshold=0 --no-cycles --depth=6" \
		"--root=. --threshold=1" "--root=. --inverted --threshold=0.5"; do
		# (clique11's eleven functions all call one another: at depth 6, 53 MB of
		# json, most of the test's time; at 5, 66,824 rows)
		[ "${f##*/}" != clique11.callgrind ] || args=${args/--depth=6/--depth=5}
		# shellcheck disable=SC2086 # the options, split
		"$NCGRIND" --dump=tree --format=tsv $args "$f" >"$dir/tsv" 2>/dev/null || true
		# shellcheck disable=SC2086
		"$NCGRIND" --dump=tree --format=json $args "$f" >"$dir/json" 2>/dev/null || true
		[ -s "$dir/tsv" ] || continue # (no function matches)
		json_as_rows "$dir/json" >"$dir/rows" 2>&1 || { echo "$f $args: $(cat "$dir/rows")"; continue; }
		tail -n +2 "$dir/tsv" | diff -u - "$dir/rows" || echo "$f $args"
		n=$((n + $(wc -l <"$dir/rows")))
	done
	echo "$n" >"$dir/n"
}

@test "tree: json holds the rows of tsv, nested: every fixture of recursion, cycles, names" {
	# (names that are not UTF-8 are json's \\xNN text, tsv's bytes: the next test;
	# the files at once, a core each)
	# shellcheck source=test/tools/each-file.sh
	source "$TOOLS/each-file.sh"
	each_file "$BATS_TEST_TMPDIR" json_rows_agree "$FIX/example.callgrind" "$FIX/recursion/"*.callgrind \
		"$FIX/monkey/clique11.callgrind" "$FIX/report/escape.callgrind" "$FIX/browser/cxx.callgrind" >"$OUT"
	if [ -s "$OUT" ]; then
		cat "$OUT"
		return 1
	fi
	# every file gave rows: 84,207 in all, 67,039 of them clique11's
	cat "$BATS_TEST_TMPDIR"/each/*/n >"$BATS_TEST_TMPDIR/rows"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/rows")" -eq 15 ]
	refute_grep '^0$' "$BATS_TEST_TMPDIR/rows"
	[ "$(awk '{ n += $1 } END { print n }' "$BATS_TEST_TMPDIR/rows")" -gt 80000 ]
}

@test "tree: json names are escaped as the functions report's" {
	# escape.callgrind: a tab, a backslash and the text \n in names (report.bats);
	# json-bytes.callgrind: bytes that are not UTF-8, C1 and bidi controls
	local f
	for f in "$FIX/report/escape.callgrind" "$FIX/hostile/json-bytes.callgrind"; do
		ncg --dump=tree --root=. --depth=0 --format=json "$f"
		expect_status 0
		grep -o '"function":"[^,]*,' "$OUT" | LC_ALL=C sort >"$OUT.tree"
		[ -s "$OUT.tree" ]
		ncg --dump=functions --format=json "$f"
		grep -o '"function":"[^,]*,' "$OUT" | LC_ALL=C sort | diff -u - "$OUT.tree"
	done
	ncg --dump=tree --root=. --depth=0 --format=json "$FIX/report/escape.callgrind"
	grep -o '"function":"[^,]*,' "$OUT" >"$OUT.tree"
	assert_grep '"function":"tab\u0009name",' "$OUT.tree"
}

# ------------------------------------------------------ the budget (issue 27)

@test "tree: the budget holds for the whole report, not for each tree" {
	# every function's tree at 0%: R rows, all nodes the report made (none is
	# left unshown). Given R nodes, the same report; R - 1, cut, its last row
	# says so; 30, at most 30 nodes and the tree's cut row over all its trees
	# (it was 1,000,000 a tree: a --function matching everything wrote gigabytes)
	local f="$FIX/example.callgrind" r
	ncg --dump=tree --root=. --threshold=0 --format=tsv "$f"
	expect_status 0
	cp "$OUT" "$OUT.all"
	r=$(($(wc -l <"$OUT.all") - 1))
	[ "$r" -gt 200 ]
	refute_grep 'cut' "$OUT.all"
	NCGRIND_TREE_NODES=$r ncg --dump=tree --root=. --threshold=0 --format=tsv "$f"
	diff -u "$OUT.all" "$OUT"
	NCGRIND_TREE_NODES=$((r - 1)) ncg --dump=tree --root=. --threshold=0 --format=tsv "$f"
	expect_status 0
	tail -1 "$OUT" >"$OUT.last"
	printf '0\t(report cut at %d nodes)\t\t0\t0\t0.00\t0.00\tcut\n' $((r - 1)) | diff -u - "$OUT.last"
	NCGRIND_TREE_NODES=30 ncg --dump=tree --root=. --threshold=0 --format=tsv "$f"
	expect_status 0
	# 30 nodes and the cut row of the tree it was making, then the report's
	[ "$(tail -n +2 "$OUT" | grep -vc '(report cut')" -le 31 ]
	[ "$(grep -c $'\tcut$' "$OUT")" -eq 2 ]
	tail -1 "$OUT" | grep -q '^0	(report cut at 30 nodes)	'
	# text: the line, commas and all
	NCGRIND_TREE_NODES=30 ncg --dump=tree --root=. --threshold=0 "$f"
	tail -1 "$OUT" | grep -q '^ *(report cut at 30 nodes)$'
	assert_grep '(tree cut at ' "$OUT"
	# json: the field, a number, and the cut node in its tree
	NCGRIND_TREE_NODES=30 ncg --dump=tree --root=. --threshold=0 --format=json "$f"
	expect_status 0
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["cut_at"] == 30, d["cut_at"]' "$OUT"
	assert_grep '"mark":"cut"' "$OUT"
	# folded: the last line, a stack of 0 (flamegraph.pl draws it nowhere)
	NCGRIND_TREE_NODES=30 ncg --dump=folded --root=. --threshold=0 "$f"
	expect_status 0
	tail -1 "$OUT" >"$OUT.last"
	echo '(report cut at 30 nodes) 0' | diff -u - "$OUT.last"
	# a budget larger than the cap is the cap
	NCGRIND_TREE_NODES=99999999 ncg --dump=tree --root=. --threshold=0 --format=tsv "$f"
	diff -u "$OUT.all" "$OUT"
}

@test "tree: a report cut before its next tree stops there, and says so" {
	# the first tree of --root=. at 0% is example's entry point's, R rows:
	# a budget of exactly R makes it whole, and the report stops before the next
	local f="$FIX/example.callgrind" r
	ncg --dump=tree --root='^0x000000000001ab70$' --threshold=0 --format=tsv "$f"
	r=$(($(wc -l <"$OUT") - 1))
	cp "$OUT" "$OUT.first"
	printf '0\t(report cut at %d nodes)\t\t0\t0\t0.00\t0.00\tcut\n' "$r" >>"$OUT.first"
	NCGRIND_TREE_NODES=$r ncg --dump=tree --root=. --threshold=0 --format=tsv "$f"
	expect_status 0
	diff -u "$OUT.first" "$OUT"
}

@test "tree: every percentage is of the printed integers, the row's over its root's and parent's" {
	# (they were of the unrounded shares: a fold row of 1,000 under a root of
	# 1,001 could read 99.85%). From the entry points the root is the total.
	local f total n=0
	for f in "$FIX/oracle/recur-default.callgrind" "$FIX/recursion/mutual.callgrind" \
		"$FIX/recursion/threads-default.callgrind" "$FIX/events/cachesim.callgrind"; do
		total=$("$NCGRIND" --format=tsv "$f" | awk -F'\t' 'NR > 1 { s += $5 } END { print s }')
		for thr in 0 0.1 1; do
			"$NCGRIND" --dump=tree --format=tsv --threshold=$thr "$f" >"$OUT" 2>/dev/null
			awk -F'\t' -v total="$total" '
				NR == 1 { next }
				{ d = $1 + 0; inc[d] = $5; parent = d ? inc[d - 1] : total
				  want = total ? 100 * $5 / total : 0; got = $6 + 0
				  if (got - want > 0.0051 || want - got > 0.0051) { print "root_pct", NR, $0; bad = 1 }
				  want = parent ? 100 * $5 / parent : 0; got = $7 + 0
				  if (got - want > 0.0051 || want - got > 0.0051) { print "parent_pct", NR, $0; bad = 1 } }
				END { exit bad }' "$OUT" || { echo "$f $thr"; return 1; }
			n=$((n + $(wc -l <"$OUT")))
		done
	done
	[ "$n" -gt 300 ]
}
