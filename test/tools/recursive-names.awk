#!/usr/bin/awk -f
# recursive-names.awk: print the function names of a Callgrind profile that are
# recursive, i.e. on a cycle of the call graph (a self-call counts), one per line.
#
# usage: awk -f recursive-names.awk PROFILE
#
# The graph is read straight from the profile, independently of ncgrind: a node is a
# function NAME (objects and files are ignored, which can only merge nodes and so can
# only find more cycles, never fewer), an edge is "fn= ... cfn= ... calls=". Compressed
# names "(ID) name" / "(ID)" are resolved per kind as the format says (fn=, cfn= and
# jfn= share one table); ids restart at each "events:" line (a new part).
# oracle.bats uses this list to leave recursive functions out of the inclusive-cost
# comparison, where callgrind_annotate's --inclusive=yes is known to overcount.

function name_of(s,    id, rest, p) {
	sub(/\r$/, "", s)
	if (s ~ /^\([0-9]+\)/) {
		p = index(s, ")")
		id = substr(s, 2, p - 2)
		rest = substr(s, p + 1)
		sub(/^[ \t]+/, "", rest)
		if (rest != "")
			fnid[id] = rest
		return (id in fnid) ? fnid[id] : "(" id ")"
	}
	return s
}

/^events:/ { split("", fnid) }
/^fn=/     { cur = name_of(substr($0, 4)); next }
/^cfn=/    { callee = name_of(substr($0, 5)); next }
/^jfn=/    { name_of(substr($0, 5)); next }
/^calls=/  {
	if (!((cur, callee) in edge)) {
		edge[cur, callee] = 1
		nsucc[cur]++
		succ[cur, nsucc[cur]] = callee
		node[cur] = 1
		node[callee] = 1
	}
	next
}

END {
	# a node is recursive when it is reachable from itself (BFS from each node)
	for (n in node) {
		split("", seen)
		head = tail = 0
		for (k = 1; k <= nsucc[n]; k++) {
			m = succ[n, k]
			if (!(m in seen)) { seen[m] = 1; queue[++tail] = m }
		}
		while (head < tail) {
			x = queue[++head]
			for (k = 1; k <= nsucc[x]; k++) {
				m = succ[x, k]
				if (!(m in seen)) { seen[m] = 1; queue[++tail] = m }
			}
		}
		if (n in seen)
			print n
	}
}
