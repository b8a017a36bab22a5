#!/usr/bin/env python3
"""edge-colours: read `tmux capture-pane -e -p` on stdin and print, for every
block of eighths (U+2589..U+258F, where a flame frame ends inside a cell), the
foreground and background colour it is drawn in ("fg=31 bg=49"), one a line.
The SGR state carries over from line to line, as tmux writes only changes."""
import re
import sys

fg, bg = "39", "49"
out = []
for line in sys.stdin.read().split("\n"):
    i = 0
    while i < len(line):
        m = re.match(r"\x1b\[([0-9;]*)m", line[i:])
        if m:
            params = m.group(1).split(";") if m.group(1) else ["0"]
            j = 0
            while j < len(params):
                p = int(params[j] or 0)
                if p == 0:
                    fg, bg = "39", "49"
                elif 30 <= p <= 37 or 90 <= p <= 97 or p == 39:
                    fg = str(p)
                elif 40 <= p <= 47 or 100 <= p <= 107 or p == 49:
                    bg = str(p)
                elif p in (38, 48):
                    n = 2 if params[j + 1] == "5" else 4
                    val = "%d;%s" % (p, ";".join(params[j + 1:j + 1 + n]))
                    if p == 38:
                        fg = val
                    else:
                        bg = val
                    j += n
                j += 1
            i += m.end()
            continue
        if "\u2589" <= line[i] <= "\u258f":
            out.append("fg=%s bg=%s" % (fg, bg))
        i += 1
print("\n".join(out))
