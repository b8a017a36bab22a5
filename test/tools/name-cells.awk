# name-cells.awk: the property of issue 26 on two saved screens of the same
# rows, one at the width under test (narrow) and one 1000 columns wide
# (whole names). Usage: awk -v head=ROW -v title=WORD -v first=ROW -v last=ROW
# -f name-cells.awk NARROW WIDE [WIDE-SHORT]. The name cell of a row starts at
# the column of WORD in the header row HEAD; it ends at two blanks (a file or
# call-site column), a tree's mark and indent are left out. WIDE-SHORT is the
# wide screen in short units (1.2G), which a narrow screen may switch to.
# Prints a line per failure:
#   cut: a narrow cell that differs from its wide one without a …
#   same: two rows that read the same while their whole names differ
#   number: a number of a narrow row, outside its name cell, that is not one
#     of its wide row's numbers, in the same order (a number cut at the edge
#     of the screen or of its column), or a number before the name cut with …
function cell(line, col,    s) {
	s = substr(line, col)
	sub(/^ +/, "", s)
	sub(/^[-+@] +/, "", s)
	sub(/  .*$/, "", s)
	sub(/ +$/, "", s)
	return s
}
# Where the name cell of line starts at col: its offset, after blanks and a mark
function cell_start(line, col,    s, t) {
	s = substr(line, col)
	t = s
	sub(/^ +/, "", t)
	sub(/^[-+@] +/, "", t)
	return col + length(s) - length(t)
}

# The numbers of a text, as the words they are ("1,234", "(12)", "+3.5%")
function is_number(w) {
	sub(/^\(/, "", w); sub(/[),]$/, "", w)
	return w ~ /^[-+]?[0-9][0-9,]*(\.[0-9]+)?(e[-+][0-9]+)?[%kKMGTPE]?$/ || w == "inf"
}
function numbers(text, out,    n, w, i, k) {
	n = split(text, w, / +/)
	k = 0
	for (i = 1; i <= n; i++)
		if (is_number(w[i]))
			out[++k] = w[i]
	return k
}
# whether the words of a[1..na] come in b[1..nb] in that order
function subseq(a, na, b, nb,    i, j) {
	j = 1
	for (i = 1; i <= na; i++) {
		while (j <= nb && b[j] != a[i])
			j++
		if (j > nb)
			return 0
		j++
	}
	return 1
}
function check_numbers(r, line, start, name, wide, short,    rest, a, na, b, nb, c, nc, n, w, i) {
	rest = substr(line, 1, start - 1) " " substr(line, start + length(name))
	na = numbers(rest, a)
	nb = numbers(wide, b)
	nc = short == "" ? 0 : numbers(short, c)
	if (na && !subseq(a, na, b, nb) && !(nc && subseq(a, na, c, nc)))
		printf "number: row %d reads '%s' for '%s'\n", r, line, wide
	n = split(substr(line, 1, start - 1), w, / +/) # (after the name: values, cut with …)
	for (i = 1; i <= n; i++)
		if (w[i] ~ /^\(?[-+]?[0-9][0-9,.]*%?…\)?$/)
			printf "number: row %d cuts '%s' with …\n", r, w[i]
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
		if (text[1, r] != "" && col[1])
			check_numbers(r, text[1, r], cell_start(text[1, r], col[1]), n[r], text[2, r],
			    text[3, r])
	}
	# (what a screen adds after a name, the calls of a call, " [recursive]", is
	# no part of it: the same function twice may read the same)
	for (r = first; r <= last; r++) {
		f[r] = w[r]
		sub(/ \(calls [-0-9,>]*( -> [0-9,]*)?\)$/, "", f[r])
		sub(/ \[recursive\]$/, "", f[r])
	}
	for (r = first; r <= last; r++)
		for (q = r + 1; q <= last; q++)
			if (n[r] != "" && n[r] == n[q] && f[r] != f[q])
				printf "same: rows %d and %d read '%s' for '%s' and '%s'\n", r, q, n[r], w[r], w[q]
}
