#!/usr/bin/env bats
# Folded stacks (issue 18): --dump=folded writes Brendan Gregg's format (a line
# per path: its frames joined by ';', a blank, what the path spends in its last
# frame itself), from the scaled paths of the call tree, so flamegraph.pl,
# inferno and speedscope draw the tree.

load test_helper

# main (self 2) calls a (10) and b (5); a (self 4) calls b (6); b (self 11).
small() {
	cat >"$BATS_TEST_TMPDIR/small.callgrind" <<'EOF'
events: Ir
fn=main
1 2
cfn=a
calls=1 1
1 10
cfn=b
calls=2 1
1 5
fn=a
1 4
cfn=b
calls=1 1
1 6
fn=b
1 11
EOF
	echo "$BATS_TEST_TMPDIR/small.callgrind"
}

@test "folded: a small profile, worked out by hand" {
	# main 17 = 2 itself + a 10 + b 5; a: 4 itself + b 6; b spends all 11 itself, so
	# each path to it keeps its call's cost
	ncg --dump=folded "$(small)"
	expect_status 0
	expect_out <<'EOF'
main 2
main;a 4
main;a;b 6
main;b 5
EOF
	# b's callers upward: b -> a -> main (6), b -> main (5); b and a spend nothing
	# themselves on these paths
	ncg --dump=folded --inverted --root='^b$' "$(small)"
	expect_out <<'EOF'
b;a;main 6
b;main 5
EOF
}

@test "folded: every node of the tree report is the sum of the folded lines under its path" {
	local f t=$BATS_TEST_TMPDIR
	for f in "$FIX/recursion/ring.callgrind" "$FIX/recursion/mutual.callgrind" \
		"$FIX/example.callgrind" "$FIX/events/cachesim.callgrind" "$FIX/monkey/clique11.callgrind"; do
		for cycles in --cycles --no-cycles; do
			ncg --dump=tree --format=tsv --threshold=0.01 $cycles "$f"
			cp "$OUT" "$t/tree"
			ncg --dump=folded --threshold=0.01 $cycles "$f"
			expect_status 0
			cp "$OUT" "$t/folded"
			# tree paths (names, cycles as <cycle N>, fold rows as "(N more)") -> cost;
			# each folded line adds its value to every prefix of its stack
			awk -F'\t' 'FNR == NR { v = $NF + 0; n = split(substr($0, 1, length($0) - length($NF) - 1), fr, ";")
				p = ""; for (i = 1; i <= n; i++) { p = p (i > 1 ? ";" : "") fr[i]; sum[p] += v; cnt[p]++ }
				next }
				FNR > 1 && $NF != "cut" { name = $2; if ($NF == "cycle") name = "<cycle " substr($2, 8)
					gsub(/;/, ":", name); path[$1] = name; p = path[0]
					for (i = 1; i <= $1; i++) p = p ";" path[i]
					d = $5 - sum[p]; tol = cnt[p] + 1
					if (d > tol || d < -tol) { print "bad: " p " tree " $5 " folded " sum[p]; bad++ }
					checked++ }
				END { if (checked < 4) { print "only " checked " nodes"; exit 1 } exit bad > 0 }' \
				FS=' ' "$t/folded" FS='\t' "$t/tree"
		done
	done
}

@test "folded: no json, no tsv: refused as a usage error, never another format in its place" {
	# (before issue 27, json and tsv were ignored: folded stacks, exit 0, and
	# `| jq` failed downstream)
	local fmt
	for fmt in json tsv; do
		ncg --dump=folded --format=$fmt "$(small)"
		expect_status 2
		[ ! -s "$OUT" ]
		expect_err <<EOF
ncgrind: --dump=folded has no $fmt: folded stacks are one format, flamegraph.pl's (--dump=tree has tsv and json)
see ncgrind --help
EOF
		# the same for a diff, and before the profiles are read
		ncg --diff --dump=folded --format=$fmt "$(small)" "$(small)"
		expect_status 2
		[ ! -s "$OUT" ]
		assert_grep "ncgrind: --dump=folded has no $fmt:" "$ERR"
		ncg --dump=folded --format=$fmt "$BATS_TEST_TMPDIR/no-such-file"
		expect_status 2
		assert_grep "ncgrind: --dump=folded has no $fmt:" "$ERR"
	done
	ncg --dump=folded --format=text "$(small)"
	expect_status 0
	[ "$(head -1 "$OUT")" = "main 2" ]
}
