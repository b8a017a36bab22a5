# tree-rows.awk: the trees' invariant checked on the printed rows of
# `ncgrind --dump=tree --format=tsv` (depth, function, file, calls, incl, ...):
# no row costs more than its parent, and the rows under a parent add up to no
# more than it, give or take the rounding of each row to an integer (half a
# unit each). Prints each broken row with its line number; exits 1 if any.
BEGIN { FS = "\t"; bad = 0 }
NR == 1 { next }
function close_level(d,    slack) {
	# the children of the row at depth d are complete: compare their sum
	slack = 0.5 * (count[d] + 1)
	if (count[d] && sum[d] > cost[d] + slack) {
		printf "line %d: rows under it add up to %d, more than %d\n", line[d], sum[d], cost[d]
		bad = 1
	}
	count[d] = 0; sum[d] = 0
}
{
	d = $1 + 0
	for (k = depth_top; k >= d; k--)
		if (k in cost)
			close_level(k)
	if (d > 0) {
		if ($5 + 0 > cost[d - 1]) {
			printf "line %d: %s costs %d, more than its parent's %d\n", NR, $2, $5, cost[d - 1]
			bad = 1
		}
		sum[d - 1] += $5; count[d - 1]++
	}
	cost[d] = $5 + 0; line[d] = NR; count[d] = 0; sum[d] = 0
	depth_top = d
}
END {
	for (k = depth_top; k >= 0; k--)
		if (k in cost)
			close_level(k)
	exit bad
}
