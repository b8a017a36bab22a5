# tree-rows.awk: the trees' invariant checked on the printed rows of
# `ncgrind --dump=tree --format=tsv` (depth, function, file, calls, incl, ...):
# no row costs more than its parent, and the rows under a parent add up to no
# more than it, exactly: the printed integers keep the rule, not only the
# costs they were rounded from. With -v total=N (the profile's total): no row
# costs more than N, and the first level of a tree from the entry points
# (-v top=1) adds up to no more than N. Rows of no tree (the cut of the whole
# report, at depth 0 and cost 0) are rows like any other. Prints each broken
# row with its line number; exits 1 if any.
BEGIN { FS = "\t"; bad = 0 }
NR == 1 { next }
function close_level(d) {
	# the children of the row at depth d are complete: compare their sum
	if (count[d] && sum[d] > cost[d]) {
		printf "line %d: rows under it add up to %.0f, more than %.0f\n", line[d], sum[d], cost[d]
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
			printf "line %d: %s costs %.0f, more than its parent's %.0f\n", NR, $2, $5, cost[d - 1]
			bad = 1
		}
		sum[d - 1] += $5; count[d - 1]++
	} else
		first += $5
	if (total != "" && $5 + 0 > total + 0) {
		printf "line %d: %s costs %.0f, more than the total %.0f\n", NR, $2, $5, total
		bad = 1
	}
	cost[d] = $5 + 0; line[d] = NR; count[d] = 0; sum[d] = 0
	depth_top = d
}
END {
	for (k = depth_top; k >= 0; k--)
		if (k in cost)
			close_level(k)
	if (top && total != "" && first > total + 0) {
		printf "the first level adds up to %.0f, more than the total %.0f\n", first, total
		bad = 1
	}
	exit bad
}
