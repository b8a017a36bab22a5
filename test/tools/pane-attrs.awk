# pane-attrs.awk: read `tmux capture-pane -e -p` (text with SGR escape sequences)
# and print each line as "H text" when its first cell has a background colour,
# "R text" when it is in reverse video, ". text" otherwise, the escapes removed.
# The SGR state carries over from line to line, as tmux writes only changes.
# Used by tmux.bats to see the cursor row and the status line in colour.
BEGIN { bg = 0; rev = 0 }
function sgr(params,    n, p, i) {
	n = split(params, p, ";")
	if (n == 0 || params == "") { bg = 0; rev = 0; return }
	for (i = 1; i <= n; i++) {
		v = p[i] + 0
		if (v == 0) { bg = 0; rev = 0 }
		else if (v == 7) rev = 1
		else if (v == 27) rev = 0
		else if ((v >= 40 && v <= 47) || (v >= 100 && v <= 107)) bg = 1
		else if (v == 49) bg = 0
		else if (v == 48) { bg = 1; i += (p[i + 1] == 5) ? 2 : 4 }
		else if (v == 38) { i += (p[i + 1] == 5) ? 2 : 4 }
	}
}
{
	line = $0; text = ""; mark = ""
	while (length(line)) {
		if (match(line, /^\033\[[0-9;]*m/)) {
			sgr(substr(line, 3, RLENGTH - 3))
			line = substr(line, RLENGTH + 1)
			continue
		}
		if (match(line, /^\033[^a-zA-Z]*[a-zA-Z]/)) { line = substr(line, RLENGTH + 1); continue }
		if (mark == "") mark = rev ? "R" : bg ? "H" : "."
		text = text substr(line, 1, 1)
		line = substr(line, 2)
	}
	if (mark == "") mark = "."
	print mark " " text
}
