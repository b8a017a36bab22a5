#!/usr/bin/env bash
# bench.sh NCGRIND - one table, one row per profile: ncgrind's full index
# (`--dump=functions --format=tsv FILE >/dev/null`) at --jobs=1 and at
# --jobs=N (N = nproc) beside a floor (test/bench/floor.c: mmap + one memchr
# per line), the time to the browser's first table, the index memory
# (RssAnon) and the worker threads' CPU time, where the N jobs' time goes
# (--stats: the index, its finish, the whole table, the report) and the
# browser's whole table (the first read as a user sees it); then
# callgrind_annotate on the 100 MiB file. `make bench` runs it from the repo root.
#
# Rows: profiles made by gen_big.py --seed 1 (100M, 1G, 5G), the biggest
# profiles of the shared corpus (real/ and xdebug/) and the multi-part ones,
# and two big real profiles made once by callgrind on a python workload (many
# parts, one of them with --separate-callers=2). Generated and valgrind
# profiles are kept in BENCH_DIR: the first run makes them (gen_big.py ~45 s
# per GB, valgrind 1.5 and 2.5 min); they are written under temporary names and
# renamed, so an interrupted run leaves none that looks complete.
#
# Every time is the median of BENCH_RUNS runs after one untimed run, so the
# file is read from the page cache: we measure parsing, not the disk.
#
# Checks (exit 1 if one fails): on the generated profiles ncgrind's TSV equals
# the generator's exact TSV at 1 and at N jobs; on every row the TSV at
# --jobs=1 and at --jobs=N are the same bytes.
#
# Environment:
#   BENCH_DIR        profiles and scratch files (default /tmp/ncgrind-bench)
#   SHARED_DIR       the shared dir: tools/gen_big.py, corpus/ (default ../shared)
#   BENCH_SIZES      generated sizes (default "100M 1G 5G")
#   BENCH_MAX_SIZE   leave out the generated sizes above this (e.g. 1G)
#   BENCH_RUNS       timed runs per measure (default 5)
#   BENCH_STATS_RUNS --stats runs at N jobs for memory and thread CPU (default 3)
#   BENCH_JOBS       N (default: nproc)
#   BENCH_CORPUS_TOP the biggest corpus profiles to time (default 5; 0: none;
#                    the multi-part ones come as well unless BENCH_CORPUS_MULTI=0)
#   BENCH_SKIP_VALGRIND=1  make no valgrind profile (those already in BENCH_DIR
#                    are still timed; BENCH_REAL=0 leaves them out too)
#   BENCH_PY_ITERS, BENCH_PY_BB    the python workload's iterations and
#                    --dump-every-bb of the many-part profile (default 28, 100000:
#                    183 MB, 4,115 parts, 80 s of valgrind here)
#   BENCH_PYSC_ITERS, BENCH_PYSC_BB  the same for the --separate-callers=2 one
#                    (default 18, 200000: 122 MB, 1,908 parts, 145 s)
#   BENCH_CGA=0      skip callgrind_annotate (BENCH_CGA_SIZE: its file, default
#                    100M or the smallest generated size; BENCH_CGA_RUNS: 2)
#   BENCH_TTY        the pseudo-terminal of the first-table time (default 120x40)
#   BENCH_KEPT=0     skip the second table: the second open of the generated
#                    profiles from their kept index (cache.h), against the
#                    first open (which reads the profile and keeps its index)
#   BENCH_CG=0       skip the instructions per line: cachegrind (--branch-sim=yes)
#                    on the floor and on ncgrind at 1 job, for the profiles of at
#                    most BENCH_CG_MAX (default 200M): the same counts on any
#                    machine and at any load, where the times vary by 10% or more
set -eu
# every read a real one, and no index kept in ~/.cache (cache.h)
export NCGRIND_CACHE_MIN=off
shopt -s inherit_errexit # so a failing command inside $(...) stops us too
export LC_ALL=C # one decimal point for awk, sort -g and printf

die() {
	echo "bench: $*" >&2
	exit 1
}
say() { echo "bench: $*"; }

[ $# -eq 1 ] || die "usage: $0 path/to/ncgrind"
[ -x "$1" ] || die "$1: not an executable (run make first)"
REPO=$(cd "$(dirname "$0")/../.." && pwd)
SHARED_DIR=${SHARED_DIR:-$REPO/../shared}
BENCH_DIR=${BENCH_DIR:-/tmp/ncgrind-bench}
SIZES=${BENCH_SIZES:-100M 1G 5G}
MAX_SIZE=${BENCH_MAX_SIZE:-}
RUNS=${BENCH_RUNS:-5}
STATS_RUNS=${BENCH_STATS_RUNS:-3}
JOBS=${BENCH_JOBS:-$(nproc)}
CORPUS_TOP=${BENCH_CORPUS_TOP:-5}
CORPUS_MULTI=${BENCH_CORPUS_MULTI:-1}
SKIP_VALGRIND=${BENCH_SKIP_VALGRIND:-0}
REAL=${BENCH_REAL:-1}
PY_ITERS=${BENCH_PY_ITERS:-28}
PY_BB=${BENCH_PY_BB:-100000}
PYSC_ITERS=${BENCH_PYSC_ITERS:-18}
PYSC_BB=${BENCH_PYSC_BB:-200000}
CGA=${BENCH_CGA:-1}
CGA_RUNS=${BENCH_CGA_RUNS:-2}
CG=${BENCH_CG:-1}
CG_MAX=${BENCH_CG_MAX:-200M}
TTY=${BENCH_TTY:-120x40}
[[ $TTY =~ ^[0-9]+x[0-9]+$ ]] || die "BENCH_TTY=$TTY: COLSxROWS expected"
[ "$RUNS" -ge 1 ] && [ "$STATS_RUNS" -ge 1 ] && [ "$JOBS" -ge 1 ] || die "bad BENCH_RUNS, BENCH_STATS_RUNS or BENCH_JOBS"
[ "$RUNS" -ge 5 ] || say "BENCH_RUNS=$RUNS: fewer than 5 runs, the medians are rough"

# Scratch files go to a subdirectory: BENCH_DIR itself holds the profiles.
mkdir -p "$BENCH_DIR/run"
BENCH_DIR=$(cd "$BENCH_DIR" && pwd)
RUN=$BENCH_DIR/run
# Made absolute before we cd, if it exists; we say so where it is needed.
SHARED_DIR=$(cd "$SHARED_DIR" 2>/dev/null && pwd || echo "$SHARED_DIR")
# Time a snapshot: a rebuild of the tree during the run must not mix two
# binaries into one set of numbers (nor fail a run while it relinks).
cp "$1" "$RUN/ncgrind"
NCGRIND=$RUN/ncgrind
TINY=$REPO/test/fixtures/example.callgrind
cd "$RUN"
rm -f out.* stats.* hf.* times.* rows.tsv checks.txt cg.*
T_START=$SECONDS
# The box may be shared: its load, at the start and at the end, goes with the table.
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)

if ! command -v hyperfine >/dev/null && [ "$(id -u)" = 0 ]; then
	apt-get install -y -qq hyperfine >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get install -y -qq hyperfine >/dev/null; } || true
fi
command -v hyperfine >/dev/null || die "hyperfine is needed: apt-get install hyperfine"
command -v python3 >/dev/null || die "python3 is needed"
cc -O2 -o floor "$REPO/test/bench/floor.c"
FLOOR=$RUN/floor

# ptytime.py WARMUP RUNS TIMEOUT COLSxROWS CMD...: run CMD on a new
# pseudo-terminal (as its controlling terminal, TERM=xterm-256color), read
# what it paints until it exits, and print the wall time of each timed run,
# fork to exit, one a line. No shell and no script(1): the overhead is a fork
# of this small process and the pty (see the baseline on a tiny profile).
cat >ptytime.py <<'EOF'
import fcntl, os, pty, select, struct, sys, termios, time
warm, runs, timeout = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
cols, rows = (int(x) for x in sys.argv[4].split("x"))
cmd = sys.argv[5:]
env = dict(os.environ, TERM="xterm-256color")
env.pop("COLUMNS", None)
env.pop("LINES", None)
def once():
    t0 = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
            os.execve(cmd[0], cmd, env)
        finally:
            os._exit(127)
    n, end = 0, time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            sys.exit("ptytime: %s: no exit after %g s" % (" ".join(cmd), timeout))
        try:
            data = os.read(fd, 1 << 16)
        except OSError:  # EIO: the terminal's last user has gone
            break
        if not data:
            break
        n += len(data)
    _, status = os.waitpid(pid, 0)
    t = time.perf_counter() - t0
    os.close(fd)
    if status != 0 or n == 0:
        sys.exit("ptytime: %s: wait status %d, %d bytes painted" % (" ".join(cmd), status, n))
    return t
for _ in range(warm):
    once()
for _ in range(runs):
    print("%.6f" % once())
EOF

# What this binary can do: --jobs, the --stats "jobs" line, --bench-first-screen,
# --bench-whole-table.
HAS_JOBS=0 HAS_JOBLINE=0 HAS_SCREEN=0 HAS_WHOLE=0
"$NCGRIND" --jobs=1 --dump=functions --format=tsv "$TINY" >/dev/null 2>&1 && HAS_JOBS=1
"$NCGRIND" --stats --dump=functions --format=tsv "$TINY" 2>&1 >/dev/null | grep -q '^ncgrind: jobs ' && HAS_JOBLINE=1
python3 ptytime.py 0 1 10 "$TTY" "$NCGRIND" --bench-first-screen "$TINY" >/dev/null 2>&1 && HAS_SCREEN=1
python3 ptytime.py 0 1 10 "$TTY" "$NCGRIND" --bench-whole-table "$TINY" >/dev/null 2>&1 && HAS_WHOLE=1
if [ "$HAS_JOBS" = 1 ]; then
	J1=(--jobs=1) JN=("--jobs=$JOBS")
else
	say "this ncgrind has no --jobs: the 1-job column is the plain command, the $JOBS-job columns are n/a"
	J1=() JN=()
fi
[ "$HAS_JOBLINE" = 1 ] || say "this ncgrind --stats prints no 'jobs' line: thread CPU is n/a"
[ "$HAS_SCREEN" = 1 ] || say "this ncgrind has no --bench-first-screen: the first-table time is n/a"

# --- the profiles --------------------------------------------------------

bytes() { # 50M -> 52428800, the way gen_big.py reads sizes
	echo "$1" | awk '{ n = $0 + 0; u = toupper($0)
		printf "%.0f\n", int(n * (u ~ /G/ ? 2^30 : u ~ /M/ ? 2^20 : u ~ /K/ ? 2^10 : 1)) }'
}
# Row lists: label, file, the generator's exact TSV (or "").
LABELS=() FILES=() WANTS=()
add_row() { LABELS+=("$1") FILES+=("$2") WANTS+=("$3"); }
T_GEN=$SECONDS

gen_profile() { # SIZE: BENCH_DIR/big-SIZE.{callgrind,tsv,expect.json}, once
	local stem=$BENCH_DIR/big-$1 t=$SECONDS
	if ! [ -s "$stem.callgrind" ] || ! [ -s "$stem.tsv" ] || ! [ -s "$stem.expect.json" ]; then
		[ -f "$SHARED_DIR/tools/gen_big.py" ] ||
			die "$SHARED_DIR/tools/gen_big.py not found: set SHARED_DIR to the shared dir (needed to generate $stem.callgrind)"
		say "generating $stem.callgrind (about 45 s per GB)..."
		python3 "$SHARED_DIR/tools/gen_big.py" --size "$1" --seed 1 "$stem.callgrind.part" \
			--expect "$stem.expect.json.part" --expect-tsv "$stem.tsv.part"
		mv "$stem.expect.json.part" "$stem.expect.json"
		mv "$stem.tsv.part" "$stem.tsv"
		mv "$stem.callgrind.part" "$stem.callgrind"
		say "  done in $((SECONDS - t)) s"
	fi
	add_row "gen $1" "$stem.callgrind" "$stem.tsv"
}
CGA_FILE=
SMALLEST=
for s in $SIZES; do
	if [ -n "$MAX_SIZE" ] && [ "$(bytes "$s")" -gt "$(bytes "$MAX_SIZE")" ]; then
		say "gen $s: left out (BENCH_MAX_SIZE=$MAX_SIZE)"
		continue
	fi
	gen_profile "$s"
	if [ -z "$SMALLEST" ] || [ "$(bytes "$s")" -lt "$(bytes "$SMALLEST")" ]; then SMALLEST=$s; fi
	[ "$s" != "${BENCH_CGA_SIZE:-100M}" ] || CGA_FILE=$BENCH_DIR/big-$s.callgrind
done
[ -n "$CGA_FILE" ] || [ -z "$SMALLEST" ] || CGA_FILE=$BENCH_DIR/big-$SMALLEST.callgrind

# The python workload of the real profiles: json, re and sorting, ITERS times.
PY_WORK='import json, random, re, sys
rnd = random.Random(1)
pat = re.compile(r"([a-z]+)(\d+)")
total = 0
for it in range(int(sys.argv[1])):
    data = [{"id": i, "name": "item%d" % rnd.randrange(10**6), "tags": ["t%d" % (i % 7)],
             "v": [rnd.random(), i * 2]} for i in range(2000)]
    s = json.dumps(data, sort_keys=True)
    back = json.loads(s)
    words = pat.findall(s)
    words.sort(key=lambda m: (m[1], m[0]))
    back.sort(key=lambda d: d["name"])
    total += len(words) + len(back)
print(total)'
# Debian's python3, not a pyenv shim: callgrind would profile the shim's shell.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(python3 -c 'import sys; print(sys.executable)')
VG_CMDS=()
vg_profile() { # LABEL NAME ITERS BB [VALGRIND OPTION...]
	local label=$1 f=$BENCH_DIR/$2.callgrind iters=$3 bb=$4 t=$SECONDS
	shift 4
	local cmd=(valgrind -q --tool=callgrind --dump-instr=yes "$@" --combine-dumps=yes
		"--dump-every-bb=$bb" "--callgrind-out-file=$f.part" "$PY" py-work.py "$iters")
	VG_CMDS+=("$(printf '%q ' "${cmd[@]}")")
	if ! [ -s "$f" ]; then
		if [ "$SKIP_VALGRIND" = 1 ]; then
			say "$label: not made (BENCH_SKIP_VALGRIND=1)"
			return
		fi
		command -v valgrind >/dev/null || {
			say "$label: valgrind not installed, left out"
			return
		}
		say "making $f with callgrind (a minute or two)..."
		printf '%s\n' "$PY_WORK" >py-work.py
		"${cmd[@]}" >/dev/null || die "${cmd[*]} failed"
		mv "$f.part" "$f"
		say "  done in $((SECONDS - t)) s"
	fi
	add_row "$label" "$f" ""
}
if [ "$REAL" = 1 ]; then
	vg_profile "py dumps" "py-dumps-i$PY_ITERS-bb$PY_BB" "$PY_ITERS" "$PY_BB"
	vg_profile "py sepcallers2" "py-sepcallers2-i$PYSC_ITERS-bb$PYSC_BB" "$PYSC_ITERS" "$PYSC_BB" \
		--separate-callers=2
fi
T_GEN=$((SECONDS - T_GEN))

# The corpus: the CORPUS_TOP biggest profiles of real/ and xdebug/, then the
# multi-part ones (several "part:" or "# callgrind format" headers, or
# Xdebug's appended profiles) that are not among them.
if [ -d "$SHARED_DIR/corpus/real" ]; then
	mapfile -t CORPUS < <(find "$SHARED_DIR/corpus/real" "$SHARED_DIR/corpus/xdebug" -type f -size +0 \
		! -name '*.txt' ! -name '*.json' ! -name '*.gz' -printf '%s %p\n' 2>/dev/null |
		sort -k1,1nr -k2 | cut -d' ' -f2-)
	n=0
	for f in "${CORPUS[@]}"; do
		multi=0
		if [ "$CORPUS_MULTI" = 1 ] && { [ "$(grep -c '^part:' "$f")" -gt 1 ] ||
			[ "$(grep -c '^# callgrind format' "$f")" -gt 1 ] || grep -q '^==== NEW PROFILING FILE' "$f"; }; then
			multi=1
		fi
		if [ "$n" -lt "$CORPUS_TOP" ] || [ "$multi" = 1 ]; then
			add_row "$(basename "$f" | sed 's/^cachegrind\.out\.//; s/\.callgrind$//')" "$f" ""
			n=$((n + 1))
		fi
	done
else
	say "$SHARED_DIR/corpus not found: no corpus rows (set SHARED_DIR)"
fi
[ "${#FILES[@]}" -gt 0 ] || die "no profile to time"

# --- the measures --------------------------------------------------------

# Prints the median of a file of numbers, one a line.
med() { sort -g "$1" | awk '{ v[NR] = $1 } END {
	if (NR == 0) { print "n/a"; exit }
	print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# check WANT.tsv OUT.tsv: compare ncgrind's TSV with the generator's exact one,
# matching rows on (function, file, object) and columns on their names
# (generator self_Ir = ncgrind self:Ir), since the row orders differ.
# Values are compared as strings: awk's doubles would hide differences
# beyond 2^53.
check() {
	awk -F'\t' '
	NR == FNR {
		if (FNR == 1) {
			for (i = 4; i <= NF; i++) { c = $i; sub(/_/, ":", c); col[i] = c }
			ncol = NF
		} else { want[$1 FS $2 FS $3] = $0; nwant++ }
		next
	}
	FNR == 1 {
		for (i = 1; i <= NF; i++) at[$i] = i
		for (i = 4; i <= ncol; i++)
			if (!(col[i] in at)) { print "no column " col[i] " in ncgrind output"; bad = 1; exit }
		next
	}
	{
		key = $1 FS $2 FS $3
		if (!(key in want)) { extra++; next }
		found++; seen[key] = 1
		split(want[key], w, FS)
		s = n = 0
		for (i = 4; i <= ncol; i++) {
			got = $(at[col[i]])
			if (got "" == w[i] "") continue
			if (col[i] ~ /^self/) s = 1; else n = 1
			if (shown < 3)
				detail = detail sprintf("      %s: expected %s, got %s\n", col[i], w[i], got)
		}
		if (s || n) {
			if (shown++ < 3)
				printf "  mismatch: %s\n    file %s, object %s\n%s", $1, $2, $3, detail
			detail = ""
		}
		bs += s; bi += n
	}
	END {
		if (bad) exit 2
		for (k in want)
			if (!(k in seen) && nmiss++ < 3) { gsub(FS, " | ", k); print "  missing: " k }
		printf "%d functions, %d self mismatches, %d incl mismatches", nwant, bs, bi
		printf " (%d missing, %d unexpected)\n", nwant - found, extra
		exit (bs || bi || found != nwant || extra) ? 1 : 0
	}' "$1" "$2"
}

# stats_run JOBS-OPTION... -- FILE OUT: one --stats run; appends RssAnon (kB)
# at the end of the index and at its peak over the whole report (memwatch.c),
# the largest thread CPU and the main CPU (s) to stats.anon, .peak, .thr, .main.
stats_run() {
	local opts=() f out line
	while [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	f=$2 out=$3
	"$NCGRIND" --stats "${opts[@]}" --dump=functions --format=tsv "$f" >"$out" 2>stats.txt ||
		{ cat stats.txt >&2; return 1; }
	sed -n 's/.*RssAnon \([0-9]*\) kB.*/\1/p' stats.txt >>stats.anon
	sed -n 's/.*RssAnon peak \([0-9]*\) kB.*/\1/p' stats.txt >>stats.peak
	line=$(grep '^ncgrind: jobs ' stats.txt || true)
	[ -n "$line" ] || return 0
	echo "$line" | sed -n 's/.*thread cpu \([0-9. ]*\) s.*/\1/p' |
		awk '{ m = ""; for (i = 1; i <= NF; i++) if (m == "" || $i + 0 > m + 0) m = $i; if (m != "") print m }' >>stats.thr
	echo "$line" | sed -n 's/.*main cpu \([0-9.]*\) s.*/\1/p' >>stats.main
	# where the time goes: the last merge, the finish (the inclusive costs; the
	# names ranked beside them), the whole table (all of it: --stats's "lines in"),
	# the report
	echo "$line" | sed -n 's/.*index wall \([0-9.]*\) s.*/\1/p' >>stats.idx
	sed -n 's/^ncgrind: .* lines in \([0-9.]*\) s .*/\1/p' stats.txt >>stats.table
	sed -n 's/^ncgrind: finish \([0-9.]*\) s.*inclusive costs \([0-9.]*\) s.*ranked in \([0-9.]*\) s.*/\1 \2 \3/p' \
		stats.txt >>stats.fin
	sed -n 's/^ncgrind: report \([0-9.]*\) s$/\1/p' stats.txt >>stats.rep
}

BAD=0
PHASES=()
# kept_row LABEL SIZE FILE: a row of kept.tsv: the first open (the profile read,
# its index kept) and the second (the kept index mapped), to the end of the report
# and to the browser's first table (which, from a kept index, is the whole table,
# inclusive costs included); the reports of both opens must be the same bytes.
kept_files() {
	find kept-cache -name '*.ncgidx' 2>/dev/null | wc -l
}

kept_row() {
	local label=$1 size=$2 f=$3 q cold warm scr1 scr2 same=ok
	printf ' kept'
	q=$(printf '%q' "$f")
	rm -rf kept-cache
	export XDG_CACHE_HOME=$PWD/kept-cache NCGRIND_CACHE_MIN=0
	# the first open, each time on an empty cache: read and keep
	hyperfine -N --style none --runs "$RUNS" --prepare "rm -rf $PWD/kept-cache" \
		--export-json hf.json "$(printf %q "$NCGRIND") ${JN[*]} --dump=functions --format=tsv $q" \
		>hf.log 2>&1 || { cat hf.log >&2; die "hyperfine failed on $f (first open)"; }
	cold=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' hf.json)
	"$NCGRIND" "${JN[@]}" --dump=functions --format=tsv "$f" >kept.1.tsv
	hyperfine -N --style none --warmup 1 --runs "$RUNS" --export-json hf.json \
		"$(printf %q "$NCGRIND") ${JN[*]} --dump=functions --format=tsv $q" >hf.log 2>&1 ||
		{ cat hf.log >&2; die "hyperfine failed on $f (second open)"; }
	warm=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' hf.json)
	"$NCGRIND" "${JN[@]}" --stats --dump=functions --format=tsv "$f" >kept.2.tsv 2>kept.stats
	grep -q 'kept index: hit' kept.stats || { same=FAIL BAD=1; echo "$label: the second open did not use the kept index" >>checks.txt; }
	cmp -s kept.1.tsv kept.2.tsv || { same=FAIL BAD=1; echo "$label: the kept index's report differs from the read one's" >>checks.txt; }
	scr1=n/a scr2=n/a
	if [ "$HAS_SCREEN" = 1 ] && [ "$HAS_WHOLE" = 1 ]; then
		rm -rf kept-cache
		python3 ptytime.py 0 1 600 "$TTY" "$NCGRIND" "${JN[@]}" --bench-first-screen "$f" >times.screen
		scr1=$(med times.screen)
		# that first screen quit before the read ended, and kept nothing: a
		# report keeps the index, then the browser opens from it (a bench that
		# timed the second open on an empty cache said 0.05 s for 1.8 s)
		"$NCGRIND" "${JN[@]}" --dump=functions --format=tsv "$f" >/dev/null
		[ "$(kept_files)" = 1 ] || { same=FAIL BAD=1; echo "$label: no index kept for the browser's second open" >>checks.txt; }
		python3 ptytime.py 1 "$RUNS" 600 "$TTY" "$NCGRIND" "${JN[@]}" --bench-whole-table "$f" >times.screen
		scr2=$(med times.screen)
	fi
	unset XDG_CACHE_HOME
	export NCGRIND_CACHE_MIN=off
	rm -rf kept-cache kept.1.tsv kept.2.tsv kept.stats
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$size" "$cold" "$warm" "$scr1" "$scr2" "$same" >>kept.tsv
}

: >rows.tsv
: >phases.tsv
: >kept.tsv
: >checks.txt
for i in "${!FILES[@]}"; do
	label=${LABELS[i]} f=${FILES[i]} want=${WANTS[i]} t=$SECONDS
	size=$(stat -L -c %s "$f")
	printf 'bench: %-30s %8.1f MB:' "$label" "$(awk "BEGIN { print $size / 1e6 }")"
	# Memory and thread CPU from --stats, which also writes the TSVs to check.
	rm -f stats.anon stats.peak stats.thr stats.main stats.idx stats.table stats.fin stats.rep \
		out.1.tsv out.N.tsv
	printf ' stats'
	if ! stats_run "${J1[@]}" -- "$f" out.1.tsv; then
		echo " FAILED"
		say "$NCGRIND --stats ${J1[*]} --dump=functions --format=tsv $f failed"
		BAD=1
		printf '%s\t%s\t%s\n' "$label" "$size" "error" >>rows.tsv
		continue
	fi
	anon1=$(med stats.anon) peak1=$(med stats.peak)
	rm -f stats.anon stats.peak stats.thr stats.main stats.idx stats.table stats.fin stats.rep
	anonN=n/a peakN=n/a thr=n/a main=n/a same=n/a exact=-
	if [ "$HAS_JOBS" = 1 ]; then
		for ((r = 0; r < STATS_RUNS; r++)); do
			stats_run "${JN[@]}" -- "$f" out.N.tsv || { BAD=1; break; }
		done
		anonN=$(med stats.anon) peakN=$(med stats.peak)
		[ ! -s stats.thr ] || thr=$(med stats.thr)
		[ ! -s stats.main ] || main=$(med stats.main)
		if cmp -s out.1.tsv out.N.tsv; then same=ok; else
			same=FAIL BAD=1
			echo "$label: --jobs=1 and --jobs=$JOBS TSVs differ: $(cmp out.1.tsv out.N.tsv 2>&1 | head -1)" >>checks.txt
		fi
	fi
	if [ -n "$want" ]; then
		printf ' check'
		exact=ok
		for j in 1 N; do
			[ -s "out.$j.tsv" ] || continue
			jobs=$([ "$j" = 1 ] && echo 1 || echo "$JOBS")
			[ "$HAS_JOBS" = 1 ] || jobs="(no --jobs)"
			if [ "$j" = N ] && [ "$same" = ok ]; then
				# the same bytes as at 1 job: the same verdict (one awk pass
				# less, ~20 s at 5 GiB)
				echo "$label, jobs $jobs: the same bytes as at 1 job" >>checks.txt
				continue
			fi
			if r=$(check "$want" "out.$j.tsv"); then
				echo "$label, jobs $jobs, vs the generator's TSV: $r" >>checks.txt
			else
				exact=FAIL BAD=1
				printf '%s, jobs %s, vs the generator'"'"'s TSV: FAIL\n%s\n' "$label" "$jobs" "$r" >>checks.txt
			fi
		done
	fi
	rm -f out.1.tsv out.N.tsv
	# The times: floor, 1 job, N jobs, each one warm-up run then RUNS runs.
	printf ' time'
	q=$(printf '%q' "$f")
	hf=(-n floor "$(printf %q "$FLOOR") $q" -n j1 "$(printf %q "$NCGRIND") ${J1[*]} --dump=functions --format=tsv $q")
	[ "$HAS_JOBS" = 0 ] || hf+=(-n jN "$(printf %q "$NCGRIND") ${JN[*]} --dump=functions --format=tsv $q")
	hyperfine -N --style none --warmup 1 --runs "$RUNS" --export-json hf.json "${hf[@]}" >hf.log 2>&1 ||
		{ cat hf.log >&2; die "hyperfine failed on $f"; }
	read -r floor j1 jN < <(python3 -c 'import json, sys
r = [x["median"] for x in json.load(open(sys.argv[1]))["results"]] + ["n/a"]
print(*r[:3])' hf.json)
	scr=n/a whole=n/a
	if [ "$HAS_SCREEN" = 1 ]; then
		printf ' screen'
		python3 ptytime.py 1 "$RUNS" 600 "$TTY" "$NCGRIND" "${JN[@]}" --bench-first-screen "$f" >times.screen
		scr=$(med times.screen)
	fi
	# the first read as the browser gives it: the whole table on the screen
	if [ "$HAS_WHOLE" = 1 ]; then
		printf ' whole'
		python3 ptytime.py 1 "$RUNS" 600 "$TTY" "$NCGRIND" "${JN[@]}" --bench-whole-table "$f" >times.whole
		whole=$(med times.whole)
	fi
	echo " ($((SECONDS - t)) s)"
	if [ "${BENCH_KEPT:-1}" != 0 ] && [ -n "$want" ]; then
		kept_row "$label" "$size" "$f"
	fi
	PHASES+=("$label $((SECONDS - t)) s")
	if [ "$HAS_JOBS" = 1 ] && [ -s stats.table ]; then
		fin=n/a incl=n/a rank=n/a
		if [ -s stats.fin ]; then
			fin=$(cut -d' ' -f1 stats.fin | med /dev/stdin)
			incl=$(cut -d' ' -f2 stats.fin | med /dev/stdin)
			rank=$(cut -d' ' -f3 stats.fin | med /dev/stdin)
		fi
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$size" "$floor" \
			"$(med stats.idx)" "$fin" "$incl" "$rank" "$(med stats.table)" "$(med stats.rep)" "$jN" \
			"$whole" >>phases.tsv
	fi
	printf '%s\t' "$label" "$size" "$floor" "$j1" "$jN" "$scr" "$anon1" "$anonN" "$thr" "$main" "$exact" >>rows.tsv
	printf '%s\t%s\t%s\n' "$same" "$peak1" "$peakN" >>rows.tsv
done

# The terminal's own cost: the first table of a 1 KB profile.
SCR_BASE=n/a
if [ "$HAS_SCREEN" = 1 ]; then
	python3 ptytime.py 1 "$RUNS" 60 "$TTY" "$NCGRIND" "${JN[@]}" --bench-first-screen "$TINY" >times.screen
	SCR_BASE=$(med times.screen)
fi

# callgrind_annotate on the 100 MiB file (~40 s a run): CGA_RUNS runs after
# the floor's read, which puts the file in the page cache.
CGA_LINE=
if [ "$CGA" = 1 ] && [ -n "$CGA_FILE" ]; then
	if command -v callgrind_annotate >/dev/null; then
		t=$SECONDS
		say "callgrind_annotate --auto=no $(basename "$CGA_FILE") ($CGA_RUNS runs, ~40 s each at 100 MiB)..."
		"$FLOOR" "$CGA_FILE" >/dev/null
		hyperfine -N --style none --runs "$CGA_RUNS" --export-json hf.json \
			"callgrind_annotate --auto=no $(printf '%q' "$CGA_FILE")" >hf.log 2>&1 ||
			{ cat hf.log >&2; die "hyperfine failed on callgrind_annotate"; }
		cga=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' hf.json)
		CGA_LINE=$(awk -F'\t' -v lab="gen ${CGA_FILE##*/big-}" -v cga="$cga" -v jobs="$JOBS" '
			BEGIN { sub(/\.callgrind$/, "", lab) }
			$1 == lab {
				printf "callgrind_annotate --auto=no on %s: %.1f s (median of %d runs)", lab, cga, '"$CGA_RUNS"'
				printf "; %.0fx ncgrind at 1 job (%.3f s)", cga / $4, $4
				if ($5 != "n/a") printf ", %.0fx at %d jobs (%.3f s)", cga / $5, jobs, $5
			}' rows.tsv)
		PHASES+=("callgrind_annotate $((SECONDS - t)) s")
	else
		CGA_LINE="callgrind_annotate not installed (valgrind package): skipped"
	fi
fi

# Instructions per line: cachegrind's counts for the floor and for ncgrind at
# 1 job (the one-pass reader; the chunks' line machine is the same code), on
# the profiles of at most CG_MAX. Counts, not times: the same on any machine
# and at any load, so that a change to the line machine can be judged where
# the times vary more than it changes them. Mispredicts are cachegrind's
# simulation (a simple predictor), a guide to where they are, not their cost.
# Row: label, size, lines, floor Ir, then for the run and for self_run() (the
# line machine, with what it inlines): Ir, branches, mispredicts.
cg_sum() { # CACHEGRIND.OUT: summary Ir Br Mis, then self_run's
	awk '/^fn=/ { in_fn = ($0 == "fn=self_run") }
	/^[0-9]/ && in_fn { ir += $2; br += $3 + $5; mis += $4 + $6 }
	/^summary:/ { t = $2 " " $3 + $5 " " $4 + $6 }
	END { if (ir) print t, ir, br, mis; else print t, "n/a n/a n/a" }' "$1"
}
CG_LINE=
if [ "$CG" = 1 ]; then
	if command -v valgrind >/dev/null; then
		t=$SECONDS
		for i in "${!FILES[@]}"; do
			f=${FILES[$i]}
			size=$(stat -c %s "$f")
			[ "$size" -le "$(bytes "$CG_MAX")" ] || continue
			say "${LABELS[$i]}: instructions per line (cachegrind)"
			vg=(valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes)
			"${vg[@]}" --cachegrind-out-file=cg.floor.out "$FLOOR" "$f" >cg.lines 2>cg.log ||
				{ cat cg.log >&2; die "cachegrind failed on the floor of $f"; }
			"${vg[@]}" --cachegrind-out-file=cg.nc.out "$NCGRIND" "${J1[@]}" --dump=functions \
				--format=tsv "$f" >/dev/null 2>cg.log ||
				{ cat cg.log >&2; die "cachegrind failed on ncgrind $f"; }
			printf '%s\t%s\t%s\t%s\t%s\n' "${LABELS[$i]}" "$size" "$(cat cg.lines)" \
				"$(cg_sum cg.floor.out | cut -d' ' -f1)" "$(cg_sum cg.nc.out | tr ' ' '\t')" >>cg.tsv
		done
		rm -f cg.floor.out cg.nc.out cg.lines cg.log
		PHASES+=("cachegrind $((SECONDS - t)) s")
	else
		CG_LINE="valgrind not installed: no instructions per line"
	fi
fi

# --- the table -----------------------------------------------------------

# fmt(x): seconds with 3 significant digits or so; n/a stays.
FMT_AWK='
function fs(x) {
	if (x == "n/a" || x == "") return "n/a"
	x += 0
	if (x == 0) return "0"
	return sprintf(x >= 100 ? "%.0f" : x >= 10 ? "%.1f" : x >= 1 ? "%.2f" : x >= 0.01 ? "%.3f" : "%.4f", x)
}
function ratio(a, b) { return (a == "n/a" || b == "n/a" || b <= 0) ? "n/a" : sprintf(a / b >= 10 ? "%.0f" : "%.1f", a / b) }
function mbs(sz, t) { return (t == "n/a" || t <= 0) ? "n/a" : sprintf("%.0f", sz / 1e6 / t) }
function mb(kb) { return kb == "n/a" ? "n/a" : sprintf(kb * 1024 / 1e6 >= 10 ? "%.0f" : "%.1f", kb * 1024 / 1e6) }
function pct(kb, sz) { return kb == "n/a" ? "n/a" : sprintf("%.0f%%", 100 * kb * 1024 / sz) }
function size(sz) { return sprintf(sz >= 1e7 ? "%.0f" : sz >= 1e5 ? "%.1f" : "%.3f", sz / 1e6) }
# the cells of a row, into c[1..n]
function cells(   n) {
	n = 0
	c[++n] = $1; c[++n] = size($2)
	if ($3 == "error") { for (k = 3; k <= 20; k++) c[++n] = (k == 17 || k == 18 ? "FAIL" : "error"); return n }
	c[++n] = fs($3)
	c[++n] = fs($4); c[++n] = ratio($4, $3); c[++n] = mbs($2, $4)
	c[++n] = fs($5); c[++n] = ratio($5, $3); c[++n] = mbs($2, $5)
	c[++n] = fs($6)
	c[++n] = mb($7); c[++n] = pct($7, $2)
	c[++n] = mb($8); c[++n] = pct($8, $2)
	c[++n] = fs($9); c[++n] = fs($10)
	c[++n] = $11; c[++n] = $12
	c[++n] = pct($13, $2); c[++n] = pct($14, $2)
	return n
}'
N=$JOBS
nc_cmd() { # the command line as printed: ncgrind ARGS..., one space apart
	local a=(ncgrind "$@")
	echo "${a[*]}"
}
echo
echo "== ncgrind --dump=functions --format=tsv FILE >/dev/null, medians of $RUNS warm runs" \
	"($(uname -m), $(nproc) CPUs, N = $N jobs; MB = 10^6 bytes; x fl = time / floor's)"
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
echo "load average (1, 5, 15 min): $LOAD_START at the start, $LOAD_END at the end (above $(nproc): other work shared the CPUs)"
W=$(awk -F'\t' '{ if (length($1) > w) w = length($1) } END { print w < 8 ? 8 : w }' rows.tsv)
awk -F'\t' -v N="$N" -v W="$W" "$FMT_AWK"'
BEGIN {
	L = "%-" W "s"
	printf L " %7s %7s | %-21s | %-21s | %7s | %-13s | %-13s | %-11s | %-11s | %s\n", "", "size", "floor",
		"------ 1 job ------", "------ " N " jobs ------", "1st", "RssAnon 1 job", "RssAnon " N " jobs",
		"cpu " N " jobs", "peak %file", "check"
	printf L " %7s %7s | %7s %5s %7s | %7s %5s %7s | %7s | %7s %5s | %7s %5s | %5s %5s | %5s %5s | %5s %5s\n",
		"profile", "MB", "s", "s", "x fl", "MB/s", "s", "x fl", "MB/s", "table s",
		"MB", "%file", "MB", "%file", "thr s", "main", "1 job", N " jobs", "exact", "1=" N
}
{
	cells()
	printf L " %7s %7s | %7s %5s %7s | %7s %5s %7s | %7s | %7s %5s | %7s %5s | %5s %5s | %5s %5s | %5s %5s\n",
		c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14],
		c[15], c[16], c[19], c[20], c[17], c[18]
}' rows.tsv
[ "$HAS_SCREEN" = 0 ] || echo "1st table s: $(nc_cmd "${JN[@]}" --bench-first-screen FILE) on a ${TTY} pty;" \
	"the same on a 1 KB profile (the terminal's own cost): $(awk "$FMT_AWK"' BEGIN { print fs("'"$SCR_BASE"'") }') s"
echo "RssAnon: at the end of the index; peak %file: its highest from the start to the report's end" \
	"(--stats, sampled every ms), as a share of the file, median of the runs"
echo "thr s: the largest worker thread CPU time (the critical path: what N threads take with a core each);" \
	"main: the main thread's CPU; both from --stats, median of $STATS_RUNS runs"
[ -z "$CGA_LINE" ] || echo "$CGA_LINE"
echo
echo "== checks"
cat checks.txt
FAILS=$(awk -F'\t' '$11 == "FAIL" || $12 == "FAIL" || $3 == "error"' rows.tsv | wc -l)
echo "exact: ncgrind's TSV = gen_big.py's --expect-tsv (generated rows, at 1 and N jobs);" \
	"1=$N: the TSVs at --jobs=1 and --jobs=$N are the same bytes; $FAILS row(s) failing"

# The same, in markdown, for a closing note.
echo
echo "== markdown"
echo
echo "Machine: $(uname -m), $(nproc) CPUs ($(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: //' || true)), $(uname -sr)." \
	"ncgrind $(git -C "$REPO" describe --always --dirty 2>/dev/null || echo '?')." \
	"Medians of $RUNS runs after one warm-up run (page cache warm); MB = 10^6 bytes; N = $N." \
	"Load average $LOAD_START at the start, $LOAD_END at the end."
echo
awk -F'\t' -v N="$N" "$FMT_AWK"'
BEGIN {
	print "| profile | MB | floor s | 1 job s | x floor | MB/s | " N " jobs s | x floor | MB/s | first table s |" \
		" RssAnon 1 job MB | % file | RssAnon " N " jobs MB | % file | max thread cpu s | main cpu s | exact | 1 job = " N " jobs |" \
		" peak RssAnon 1 job % file | peak RssAnon " N " jobs % file |"
	print "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|--:|--:|"
}
{
	n = cells(); line = "|"
	for (k = 1; k <= n; k++) line = line " " c[k] " |"
	print line
}' rows.tsv
echo
[ "$SCR_BASE" = n/a ] || echo "First table on a 1 KB profile (the pty's and curses' own cost): $(awk "$FMT_AWK"' BEGIN { print fs("'"$SCR_BASE"'") }') s."
if [ -s phases.tsv ]; then
	echo
	echo "== where the $N jobs' time goes (--stats, medians of $STATS_RUNS runs; x floor: of the timed runs' floor)"
	awk -F'\t' "$FMT_AWK"'
	BEGIN {
		print "| profile | MB | floor s | index s | finish s | inclusive s | ranked s | whole table s | report s |" \
			" to the report'"'"'s end s | x floor | browser, whole table s | x floor |"
		print "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
	}
	{
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, size($2), fs($3),
			fs($4), fs($5), fs($6), fs($7), fs($8), fs($9), fs($10), ratio($10, $3), fs($11), ratio($11, $3)
	}' phases.tsv
	echo "(index: to the last chunk merged; finish: what profile_finish() took after it, the inclusive costs" \
		"and, on a thread of its own beside them, the names ranked; whole table: the file read to all of" \
		"it; report: the rows written, to a file (the checks read it); to the report's end: the timed runs'" \
		"median, as in the table above, exit included; browser, whole table: $(nc_cmd "${JN[@]}" --bench-whole-table FILE)" \
		"on a ${TTY} pty, the read's whole table drawn, to exit, the same minute as the floor)"
fi
if [ -s kept.tsv ]; then
	echo
	echo "== the second open: the kept index (\$XDG_CACHE_HOME/ncgrind) against the first open (read, and kept), $N jobs, medians"
	awk -F'\t' "$FMT_AWK"'
	BEGIN {
		print "| profile | MB | 1st open, report s | 2nd open, report s | x faster | 1st open, first table s | 2nd open, whole table s | same |"
		print "|---|--:|--:|--:|--:|--:|--:|---|"
	}
	{ printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, size($2), fs($3), fs($4), ratio($3, $4), fs($5), fs($6), $7 }' kept.tsv
	echo "(the first open's first table shows the self costs while the rest is read; the second open's is whole)"
fi
if [ -s cg.tsv ]; then
	echo
	echo "== instructions per line: cachegrind --cache-sim=no --branch-sim=yes, ncgrind at 1 job (counts: the same at any load)"
	awk -F'\t' "$FMT_AWK"'
	function pl(x, n) { return x == "n/a" ? x : sprintf(x / n >= 10 ? "%.0f" : "%.1f", x / n) }
	BEGIN {
		print "| profile | MB | lines | floor Ir/line | Ir/line | x floor | branches/line | mispredicts/line |" \
			" line machine Ir/line | branches/line | mispredicts/line |"
		print "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
	}
	{
		n = $3
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, size($2), $3,
			pl($4, n), pl($5, n), ratio($5, $4), pl($6, n), pl($7, n), pl($8, n), pl($9, n), pl($10, n)
	}' cg.tsv
	echo "(line machine: self_run() and what it inlines, n/a in a build without symbols;" \
		"mispredicts: cachegrind's simple predictor, not the CPU's)"
fi
[ -z "$CG_LINE" ] || { echo; echo "$CG_LINE."; }
[ -z "$CGA_LINE" ] || echo "${CGA_LINE}."
echo
echo "Commands (FILE = each profile; hyperfine -N --warmup 1 --runs $RUNS unless said):"
echo
echo "    floor FILE                                   # test/bench/floor.c, cc -O2: mmap + one memchr per line"
echo "    $(nc_cmd "${J1[@]}" --dump=functions --format=tsv FILE)"
[ "$HAS_JOBS" = 0 ] || echo "    $(nc_cmd "${JN[@]}" --dump=functions --format=tsv FILE)"
[ "$HAS_SCREEN" = 0 ] || echo "    $(nc_cmd "${JN[@]}" --bench-first-screen FILE)      # on a $TTY pty, TERM=xterm-256color, fork to exit (test/bench/bench.sh's ptytime.py)"
echo "    $(nc_cmd --stats "${J1[@]}" --dump=functions --format=tsv FILE) >out.1.tsv   # RssAnon at 1 job"
[ "$HAS_JOBS" = 0 ] || echo "    $(nc_cmd --stats "${JN[@]}" --dump=functions --format=tsv FILE) >out.N.tsv   # x$STATS_RUNS: RssAnon, thread and main cpu at $N jobs; cmp out.1.tsv out.N.tsv"
[ -z "$CGA_FILE" ] || [ "$CGA" != 1 ] || echo "    callgrind_annotate --auto=no $(basename "$CGA_FILE")   # hyperfine -N --runs $CGA_RUNS, after one read by floor"
[ ! -s cg.tsv ] || echo "    valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes floor FILE; the same on $(nc_cmd "${J1[@]}" --dump=functions --format=tsv FILE)   # FILE of at most $CG_MAX"
for s in $SIZES; do
	if [ -z "$MAX_SIZE" ] || [ "$(bytes "$s")" -le "$(bytes "$MAX_SIZE")" ]; then
		echo "    python3 gen_big.py --size $s --seed 1 big-$s.callgrind --expect big-$s.expect.json --expect-tsv big-$s.tsv"
	fi
done
if [ "$REAL" = 1 ]; then
	for c in "${VG_CMDS[@]}"; do echo "    ${c//$BENCH_DIR\//}" | sed 's/\.part / /'; done
	echo "    # py-work.py ITERS: json.dumps/loads of 2,000 dicts, re.findall, two sorts, ITERS times:"
	printf '%s\n' "$PY_WORK" | sed 's/^/    #   /'
fi
echo
PHASES+=("total $((SECONDS - T_START)) s")
echo "bench: making profiles $T_GEN s; ${PHASES[*]/%/;}" | sed 's/;$//'
exit "$BAD"
