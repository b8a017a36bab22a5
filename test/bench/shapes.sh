#!/usr/bin/env bash
# shapes.sh NCGRIND - the call-graph shapes that made call views and trees slow
# (issue 11), generated at full size, and the time and memory ncgrind takes on
# each: every line should stay well under a second; the median of RUNS runs.
#   callees30k    main calls 30,000 functions          --dump=callees of main
#   callers1m     1,000,000 functions call leaf          --dump=callers of leaf; r on leaf
#   chain100k     a chain of 100,000 calls               --dump=tree --format=tsv
#   cycle100k     a recursive cycle of 100,000 functions --dump=tree --format=tsv, with
#                 cycle detection on (one <cycle 1> node) and off (call by call);
#                 t E on main in the browser (script mode), both ways
#   hidecycle     the cycle, every member hidden         --command='hide ^f' --dump=tree
# and issue 28's, from test/tools/mk-shapes.sh:
#   events100k    an events: line of 100,000 events      --dump=functions
#   inherited30k  30,000 'event: Di = Ei' lines          --dump=functions
#   hubs8k        two callers of 8,000 functions each    --dump=callers of every function
#   chain100k     (as above)                             --dump=folded
# Environment: BENCH_DIR (default /tmp/ncgrind-bench), RUNS (3).
set -eu
# every read a real one, and no index kept in ~/.cache (cache.h)
export NCGRIND_CACHE_MIN=off
export LC_ALL=C
[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: $0 path/to/ncgrind" >&2; exit 2; }
NCG=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
DIR=${BENCH_DIR:-/tmp/ncgrind-bench}/shapes
RUNS=${RUNS:-3}
SHAPES=$(cd "$(dirname "$0")/../tools" && pwd)/mk-shapes.sh
mkdir -p "$DIR"
cd "$DIR"

gen() { # gen NAME AWK-PROGRAM: write NAME.callgrind once
	[ -s "$1.callgrind" ] || awk "$2" >"$1.callgrind"
}
HEAD='print "# callgrind format"; print "events: Ir"; print "fl=s.c"'
gen callees30k "BEGIN { $HEAD; print \"fn=main\"; print \"1 1\"
	for (i = 0; i < 30000; i++) printf \"cfn=c%d\ncalls=1 %d\n%d 10\n\", i, i + 2, i + 2
	for (i = 0; i < 30000; i++) printf \"fn=c%d\n%d 10\n\", i, i + 2 }"
gen callers1m "BEGIN { $HEAD; srand(7)
	for (i = 0; i < 1000000; i++) printf \"fn=p%d\n1 1\ncfn=leaf\ncalls=1 5\n1 %d\n\", i, 1 + int(rand() * 9)
	print \"fn=leaf\"; print \"5 5000000\" }"
gen chain100k "BEGIN { $HEAD
	for (i = 0; i < 100000; i++) printf \"fn=d%d\n1 1\ncfn=d%d\ncalls=1 1\n1 %d\n\", i, i + 1, 100000 - i
	print \"fn=d100000\"; print \"1 1\" }"
gen cycle100k "BEGIN { $HEAD; print \"fn=main\"; print \"1 1\"; print \"cfn=f0\"; print \"calls=1 1\"
	print \"1 200000\"
	for (i = 0; i < 100000; i++) printf \"fn=f%d\n1 1\ncfn=f%d\ncalls=1 1\n1 %d\n\", i, (i + 1) % 100000, 199999 - i }"
for s in events:100000 inherited:30000 hubs:8000; do
	f=${s%%:*}$((${s#*:} / 1000))k.callgrind
	[ -s "$f" ] || "$SHAPES" "${s%%:*}" "${s#*:}" >"$f"
done

# median SECONDS and KB of RUNS runs of the command
measure() {
	local i
	for i in $(seq "$RUNS"); do
		/usr/bin/time -f '%e %M' -o "$DIR/time" "$@" >/dev/null 2>&1 || true
		cat "$DIR/time"
	done | sort -n | awk '{ t[NR] = $1; m[NR] = $2 } END { i = int((NR + 1) / 2); printf "%6.2f s %8d KB", t[i], m[i] }'
}

row() { # row LABEL COMMAND...
	printf '%-44s %s\n' "$1" "$(shift; measure "$@")"
}

printf ':goto ^leaf$\nr\nE\n' >keys-r
printf ':goto ^main$\nt\nE\n' >keys-tE
printf ':goto ^main$\n@\nt\nE\n' >keys-tE-off
echo "shapes (median of $RUNS runs, $NCG)"
row "callees30k  --dump=callees of main" "$NCG" --dump=callees --function='^main$' callees30k.callgrind
row "callers1m   --dump=callers of leaf" "$NCG" --dump=callers --function='^leaf$' callers1m.callgrind
row "callers1m   r E on leaf (script mode)" "$NCG" --script=keys-r callers1m.callgrind
row "chain100k   --dump=tree --format=tsv" "$NCG" --dump=tree --root='^d0$' --format=tsv chain100k.callgrind
row "cycle100k   --dump=tree --format=tsv" "$NCG" --dump=tree --root='^main$' --format=tsv cycle100k.callgrind
row "cycle100k   --no-cycles --dump=tree --format=tsv" "$NCG" --dump=tree --root='^main$' --no-cycles \
	--format=tsv cycle100k.callgrind
row "cycle100k   t E on main (script mode)" "$NCG" --script=keys-tE cycle100k.callgrind
row "cycle100k   @ t E on main (no cycles)" "$NCG" --script=keys-tE-off cycle100k.callgrind
row "cycle100k   hide ^f, --dump=tree" "$NCG" --command='hide ^f' --dump=tree --root='^main$' cycle100k.callgrind
row "cycle100k   hide ^f, --no-cycles --dump=tree" "$NCG" --command='hide ^f' --no-cycles --dump=tree \
	--root='^main$' cycle100k.callgrind
row "events100k  --dump=functions" "$NCG" --dump=functions events100k.callgrind
row "inherited30k --dump=functions" "$NCG" --dump=functions inherited30k.callgrind
row "hubs8k      --dump=callers --function=." "$NCG" --dump=callers --function=. hubs8k.callgrind
row "chain100k   --dump=folded" "$NCG" --dump=folded --root='^d0$' chain100k.callgrind
