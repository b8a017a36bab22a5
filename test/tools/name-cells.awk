# name-cells.awk: the property of issue 26 on two saved screens of the same
# rows, one at the width under test (narrow) and one 1000 columns wide
# (whole names). Usage: awk -v head=ROW -v title=WORD -v first=ROW -v last=ROW
# -f name-cells.awk NARROW WIDE. The name cell of a row starts at the column of
# WORD in the header row HEAD; it ends at two blanks (a file or call-site
# column), a tree's mark and indent are left out. Prints a line per failure:
#   cut: a narrow cell that differs from its wide one without a …
#   same: two rows that read the same while their whole names differ
function cell(line, col,    s) {
	s = substr(line, col)
	sub(/^ +/, "", s)
	sub(/^[-+@] +/, "", s)
	sub(/  .*$/, "", s)
	sub(/ +$/, "", s)
	return s
}
FNR == 1 { file++ }
FNR == head { col[file] = index($0, title) }
FNR >= first && FNR <= last { text[file, FNR] = $0 }
END {
	if (!col[1] && !col[2]) # a screen without the list (no calls in a Cachegrind file)
		exit 0
	if (!col[1] || !col[2]) { print "no header " title " on one of the screens"; exit 1 }
	for (r = first; r <= last; r++) {
		n[r] = cell(text[1, r], col[1]); w[r] = cell(text[2, r], col[2])
		# a heading of the callers screen
		if (text[2, r] ~ /^Call(ers|ees) \(/)
			n[r] = w[r] = ""
		# (one name in two files: the file's base name after it, "dup (a.c)")
		if (n[r] != w[r] && index(n[r], "…") == 0 && index(n[r], w[r] " (") != 1)
			printf "cut: row %d reads '%s' for '%s'\n", r, n[r], w[r]
	}
	for (r = first; r <= last; r++)
		for (q = r + 1; q <= last; q++)
			if (n[r] != "" && n[r] == n[q] && w[r] != w[q])
				printf "same: rows %d and %d read '%s' for '%s' and '%s'\n", r, q, n[r], w[r], w[q]
}
