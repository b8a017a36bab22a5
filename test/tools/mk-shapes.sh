#!/bin/sh
# mk-shapes.sh KIND N: print a profile whose size grows with N, made to show
# how the cost of reading or reporting it grows (issue 28). Small files, of
# a shape that once cost far more than their size:
#   events     one events: line of N events E0..E(N-1), one cost line of N ones
#   inherited  N raw events and N `event: Di = Ei` lines, main with Ir 1
#   fanout     main calls g1..gN once each from its lines 1..N, call cost 5;
#              each gi spends 5 itself on its line i
#   hubs       hub1 and hub2 each call g1..gN once (hub1 from its lines 1..N,
#              hub2 from N+1..2N), call cost 5; each gi spends 5 on its line i
#   chain      f0 calls f1 calls ... f(N-1), once each; each spends 1 itself
set -e
kind=${1:?usage: mk-shapes.sh KIND N}
n=${2:?usage: mk-shapes.sh KIND N}

awk -v kind="$kind" -v n="$n" 'BEGIN {
	if (kind == "events") {
		printf "events:"
		for (i = 0; i < n; i++) printf " E%d", i
		printf "\nfl=a.c\nfn=main\n1"
		for (i = 0; i < n; i++) printf " 1"
		printf "\n"
	} else if (kind == "inherited") {
		printf "events:"
		for (i = 0; i < n; i++) printf " E%d", i
		printf "\n"
		for (i = 0; i < n; i++) printf "event: D%d = E%d\n", i, i
		printf "fl=a.c\nfn=main\n1 1\n"
	} else if (kind == "fanout") {
		printf "events: Ir\nfl=a.c\nfn=main\n1 1\n"
		for (i = 1; i <= n; i++) printf "cfn=g%d\ncalls=1 %d\n%d 5\n", i, i, i
		for (i = 1; i <= n; i++) printf "fn=g%d\n%d 5\n", i, i
	} else if (kind == "hubs") {
		printf "events: Ir\nfl=a.c\n"
		for (h = 1; h <= 2; h++) {
			printf "fn=hub%d\n1 1\n", h
			for (i = 1; i <= n; i++)
				printf "cfn=g%d\ncalls=1 %d\n%d 5\n", i, i, (h - 1) * n + i
		}
		for (i = 1; i <= n; i++) printf "fn=g%d\n%d 5\n", i, i
	} else if (kind == "chain") {
		printf "events: Ir\nfl=a.c\n"
		for (i = 0; i < n; i++) {
			printf "fn=(%d) f%d\n1 1\n", i + 1, i
			if (i + 1 < n)
				printf "cfn=(%d) f%d\ncalls=1 1\n1 %d\n", i + 2, i + 1, n - i - 1
		}
	} else {
		print "mk-shapes.sh: unknown kind " kind > "/dev/stderr"
		exit 2
	}
}'
