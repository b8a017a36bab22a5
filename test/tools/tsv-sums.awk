#!/usr/bin/awk -f
# tsv-sums.awk: sum ncgrind's `--dump=functions --format=tsv` per function name, in the
# same shape as annotate-self.awk prints callgrind_annotate's table.
#
# usage: ncgrind --format=tsv FILE | awk -v which=self -f tsv-sums.awk
#        which=self (default) or which=incl: the columns "self:EV" or "incl:EV"
#
# Prints "events<TAB>EV1..." then "NAME<TAB>SUM1..." sorted by NAME, leaving out rows
# whose sums are all zero. NAME is cut from "FILE:FUNCTION" after the first ':' exactly
# as annotate-self.awk does with callgrind_annotate's keys (so Xdebug's file
# "php:internal" is cut identically on both sides), after undoing the TSV escapes
# \t \n \\ of the function and file fields; blanks around the name are stripped.
#
# Sums are done in awk's doubles: exact below 2^53, far above the oracle files here.

BEGIN {
	FS = "\t"
	if (which == "")
		which = "self"
}

function unescape(s,    out, i, c, d) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\" && i < length(s)) {
			d = substr(s, i + 1, 1)
			if (d == "t") { out = out "\t"; i++; continue }
			if (d == "n") { out = out "\n"; i++; continue }
			if (d == "\\") { out = out "\\"; i++; continue }
		}
		out = out c
	}
	return out
}

function trim(s) {
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}

NR == 1 {
	for (i = 1; i <= NF; i++)
		if (index($i, which ":") == 1)
			col[++ncol] = i
	line = "events"
	for (j = 1; j <= ncol; j++)
		line = line "\t" substr($(col[j]), length(which) + 2)
	print line
	next
}

{
	key = unescape($2) ":" unescape($1)
	c = index(key, ":")
	name = trim(substr(key, c + 1))
	rows[name]++
	if (!(name in seen)) {
		seen[name] = 1
		names[++nnames] = name
		for (j = 1; j <= ncol; j++)
			sum[name, j] = 0
	}
	for (j = 1; j <= ncol; j++)
		sum[name, j] += $(col[j])
}

END {
	for (a = 2; a <= nnames; a++) {
		t = names[a]
		for (b = a - 1; b >= 1 && names[b] > t; b--)
			names[b + 1] = names[b]
		names[b + 1] = t
	}
	for (a = 1; a <= nnames; a++) {
		line = names[a]
		nz = 0
		for (j = 1; j <= ncol; j++) {
			line = line "\t" sprintf("%.0f", sum[names[a], j])
			if (sum[names[a], j] != 0)
				nz = 1
		}
		if (nz && (!single || rows[names[a]] == 1))
			print line
	}
}
