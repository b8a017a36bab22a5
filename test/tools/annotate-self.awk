#!/usr/bin/awk -f
# annotate-self.awk: sum callgrind_annotate's function table per function name.
#
# usage: awk -f annotate-self.awk NAME.annotate-all.txt
#        (also for NAME.annotate-incl-all.txt: the table has the same shape)
#
# Reads the output of `callgrind_annotate --auto=no --threshold=100 [--inclusive=yes]`
# and prints
#     events<TAB>EV1<TAB>EV2...          (the "Events shown:" line)
#     NAME<TAB>COST1<TAB>COST2...        (one line per function name, sorted by NAME)
# where COSTi is the sum, over every line of the table whose function is NAME, of the
# i-th column ("." counts as 0, thousands separators removed). Rows whose costs are
# all zero are left out (ncgrind lists functions without cost, callgrind_annotate
# does not).
#
# A table row is "COST (PCT%) COST (PCT%) ...  FILE:FUNCTION [OBJECT]". callgrind_annotate
# keys functions by the CURRENT file (fi=/fe= split one function into several rows), so
# the name is what follows the first ':' of "FILE:FUNCTION"; summing over the rows of
# one name makes the result independent of that split (same rule as
# /work/shared/tools/corpus-check). tsv-sums.awk applies the same rule to ncgrind's
# TSV, so a file name containing ':' (Xdebug's "php:internal") is cut the same way
# on both sides. Blanks around the name are stripped.
#
# Plain POSIX awk (mawk, gawk, busybox): no gensub, no arrays of arrays; sorting is
# done here with a simple insertion sort so the output does not depend on sort(1)'s
# locale.

function trim(s) {
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}

/^Events shown:/ {
	nev = split(substr($0, index($0, ":") + 1), ev, " ")
	next
}

intable == 0 {
	if ($0 ~ /file:function[ \t]*$/)
		intable = 1
	next
}

intable == 1 {
	if ($0 ~ /^---/)
		next
	if ($0 ~ /^[ \t]*$/) {
		if (seen)       # the blank line after the table ends it
			exit
		next
	}
	seen = 1
	rest = $0
	for (i = 1; i <= nev; i++) {
		if (!match(rest, /^[ ]*(\.|[0-9][0-9,]*)/)) {
			v[i] = 0
			continue
		}
		tok = trim(substr(rest, 1, RLENGTH))
		rest = substr(rest, RLENGTH + 1)
		gsub(/,/, "", tok)
		v[i] = (tok == ".") ? 0 : tok
		if (match(rest, /^[ ]*\([ ]*[0-9.]+%\)/))
			rest = substr(rest, RLENGTH + 1)
	}
	key = trim(rest)
	sub(/ \[[^]]*\]$/, "", key)
	c = index(key, ":")
	name = trim(c ? substr(key, c + 1) : key)
	rows[name]++
	if (!(name in sum)) {
		names[++nnames] = name
		for (i = 1; i <= nev; i++)
			sum[name, i] = 0
		sum[name] = 1
	}
	for (i = 1; i <= nev; i++)
		sum[name, i] += v[i]
}

END {
	line = "events"
	for (i = 1; i <= nev; i++)
		line = line "\t" ev[i]
	print line
	# insertion sort of the names (byte order)
	for (a = 2; a <= nnames; a++) {
		t = names[a]
		for (b = a - 1; b >= 1 && names[b] > t; b--)
			names[b + 1] = names[b]
		names[b + 1] = t
	}
	for (a = 1; a <= nnames; a++) {
		line = names[a]
		nz = 0
		for (i = 1; i <= nev; i++) {
			line = line "\t" sprintf("%.0f", sum[names[a], i])
			if (sum[names[a], i] != 0)
				nz = 1
		}
		if (nz && (!single || rows[names[a]] == 1))
			print line
	}
}
