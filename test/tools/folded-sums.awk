# folded-sums.awk: the folded stacks' invariant, checked on what ncgrind prints.
#
# usage: LC_ALL=C awk [-v total=N] -f folded-sums.awk TREE.tsv FOLDED
#
# TREE.tsv is `--dump=tree --format=tsv` and FOLDED `--dump=folded` with the
# same options. With total (one tree, from the entry points), the values of
# FOLDED add up to no more than the total N; and the lines of each tree
# (those whose first frame is its root) to no more than the root's cost in
# TREE.tsv. Roots are matched by name, the costs of roots of one name summed
# (two functions of one name in two files). The two formats escape a name
# each its own way (tsv \t, \n and \\; the folded stacks ':' for ';', '?'
# for a control byte, \xNN and \uXXXX for what a terminal would act on), so
# a name is matched by its ASCII letters and digits alone, after each's
# escapes are taken out. Prints what is broken; exits 1 if anything is.
BEGIN { bad = 0 }
function key(s) {
	gsub(/[^A-Za-z0-9]/, "", s)
	return s
}
FNR == NR {
	split($0, f, "\t")
	if (FNR > 1 && f[1] == "0") {
		gsub(/\\\\/, "", f[2]) # (an escaped backslash first: \\n is no newline)
		gsub(/\\[tn]/, "", f[2])
		root[key(f[2])] += f[5]
	}
	next
}
{
	v = $NF
	first = substr($0, 1, length($0) - length(v) - 1)
	sub(/;.*/, "", first)
	if (first ~ /^\(report cut at [0-9]+ nodes\)$/)
		next
	gsub(/\\x[0-9a-f][0-9a-f]|\\u[0-9a-f][0-9a-f][0-9a-f][0-9a-f]/, "", first)
	sum += v
	stacks[key(first)] += v
}
END {
	if (total != "" && sum > total + 0) {
		printf "the stacks add up to %.0f, more than the total %.0f\n", sum, total
		bad = 1
	}
	for (r in stacks) {
		if (!(r in root)) {
			printf "%s: no such root in the tree\n", r
			bad = 1
		} else if (stacks[r] > root[r]) {
			printf "%s: its stacks add up to %.0f, more than its cost %.0f\n", r, stacks[r], root[r]
			bad = 1
		}
	}
	exit bad
}
