#!/bin/sh
# mk-long-lines.sh DIR: write the two 1 MiB-line files of the corpus's malformed/ set
# into DIR (they are generated, not kept in test/fixtures/, to keep the fixtures small):
#   DIR/line-1MB-costline.callgrind  cost line "1 10" followed by 1 MiB of spaces
#   DIR/line-1MB-name.callgrind      fn= name of 1 MiB of 'N'
# Byte-identical to /work/shared/corpus/malformed/line-1MB-*.callgrind.
set -e
dir=${1:?usage: mk-long-lines.sh DIR}

# 1 MiB (1048576 bytes) of one character: a 1 KiB string printed 1024 times.
mib() {
	awk -v c="$1" 'BEGIN { s = c; while (length(s) < 1024) s = s s;
		for (i = 0; i < 1024; i++) printf "%s", s }'
}

{
	printf '# callgrind format\nevents: Ir\nfl=a.c\nfn=main\n1 10'
	mib ' '
	printf '\n2 20\n'
} >"$dir/line-1MB-costline.callgrind"

{
	printf '# callgrind format\nevents: Ir\nfl=a.c\nfn='
	mib N
	printf '\n1 10\nfn=main\n2 20\n'
} >"$dir/line-1MB-name.callgrind"
