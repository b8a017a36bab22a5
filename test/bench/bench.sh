#!/usr/bin/env bash
# bench.sh NCGRIND - time ncgrind against a floor (mmap + memchr line count)
# and callgrind_annotate on generated profiles, and check its numbers against
# the generator's exact expected TSV.  `make bench` runs it from the repo root.
#
# Environment:
#   BENCH_DIR   where profiles and scratch files live (default /tmp/ncgrind-bench)
#   BENCH_SIZE  size of the big profile (default 1G; e.g. 200M for a quick run)
#   BENCH_RUNS  timed runs on the big profile (default 5)
#   BENCH_QUICK=1  skip the correctness check on the big profile
#   SHARED_DIR  the shared dir holding tools/gen_big.py (default ../shared)
set -eu
shopt -s inherit_errexit # so a failing command inside $(...) stops us too
export LC_ALL=C # one decimal point for awk, sort -g and $EPOCHREALTIME

die() { echo "bench: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: $0 path/to/ncgrind"
[ -x "$1" ] || die "$1: not an executable (run make first)"
REPO=$(cd "$(dirname "$0")/../.." && pwd)
SHARED_DIR=${SHARED_DIR:-$REPO/../shared}
BENCH_DIR=${BENCH_DIR:-/tmp/ncgrind-bench}
BIG=${BENCH_SIZE:-1G}
RUNS=${BENCH_RUNS:-5}
# Scratch files go to a subdirectory: BENCH_DIR itself holds the profiles.
mkdir -p "$BENCH_DIR/run"
BENCH_DIR=$(cd "$BENCH_DIR" && pwd)
RUN=$BENCH_DIR/run
# Made absolute before we cd, if it exists; profile() says so if it does not.
SHARED_DIR=$(cd "$SHARED_DIR" 2>/dev/null && pwd || echo "$SHARED_DIR")
# Time a snapshot: a rebuild of the tree during the ~2 min run must not mix
# two binaries into one set of numbers (nor fail a run while it relinks).
cp "$1" "$RUN/ncgrind"
NCGRIND=$RUN/ncgrind
cd "$BENCH_DIR"

bytes() { # 50M -> 52428800, the way gen_big.py reads sizes
	echo "$1" | awk '{ n = $0 + 0; u = toupper($0)
		print int(n * (u ~ /G/ ? 2^30 : u ~ /M/ ? 2^20 : u ~ /K/ ? 2^10 : 1)) }'
}
# callgrind_annotate is compared on 50M (it needs 13-20 s there); a quick run
# with a smaller BENCH_SIZE uses that size for everything.
SMALL=50M
if [ "$(bytes "$BIG")" -lt "$(bytes "$SMALL")" ]; then SMALL=$BIG; fi

# Profiles are expensive to make (~30 s per GB), so they are kept between runs;
# they are written under temporary names so an interrupted run leaves none
# that looks complete.
profile() {
	local stem=big-$1
	[ -s "$stem.callgrind" ] && [ -s "$stem.tsv" ] && [ -s "$stem.expect.json" ] && return
	[ -f "$SHARED_DIR/tools/gen_big.py" ] ||
		die "$SHARED_DIR/tools/gen_big.py not found: set SHARED_DIR to the shared dir (needed to generate $BENCH_DIR/$stem.callgrind)"
	echo "generating $stem.callgrind (about 30 s per GB)..."
	python3 "$SHARED_DIR/tools/gen_big.py" --size "$1" --seed 1 "$stem.callgrind.part" \
		--expect "$stem.expect.json.part" --expect-tsv "$stem.tsv.part"
	mv "$stem.expect.json.part" "$stem.expect.json"
	mv "$stem.tsv.part" "$stem.tsv"
	mv "$stem.callgrind.part" "$stem.callgrind"
}
profile "$BIG"
profile "$SMALL"
BIGF=$BENCH_DIR/big-$BIG.callgrind
SMALLF=$BENCH_DIR/big-$SMALL.callgrind
WANT_BIG=$BENCH_DIR/big-$BIG.tsv
WANT_SMALL=$BENCH_DIR/big-$SMALL.tsv
cd "$RUN"

cc -O2 -o floor "$REPO/test/bench/floor.c"
FLOOR=$RUN/floor

if ! command -v hyperfine >/dev/null && [ "$(id -u)" = 0 ]; then
	apt-get install -y -qq hyperfine >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get install -y -qq hyperfine >/dev/null; } || true
fi
if [ ! -x /usr/bin/time ] && [ "$(id -u)" = 0 ]; then
	apt-get install -y -qq time >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get install -y -qq time >/dev/null; } || true
fi
[ -x /usr/bin/time ] || die "/usr/bin/time (GNU time) is needed for peak RSS: apt-get install time"

# timeit LABEL RUNS CMD...: leaves one wall time per line in times.LABEL.
# One untimed run first, so that every timed run reads the file from the
# page cache: we measure parsing, not the disk.
timeit() {
	local label=$1 runs=$2 i
	shift 2
	if command -v hyperfine >/dev/null; then
		# No shell (-N): its start-up time is noise next to the floor's.
		# Output goes to /dev/null, hyperfine's default.
		hyperfine -N --style none --warmup 1 --runs "$runs" \
			--export-json "hf.$label.json" "$(printf '%q ' "$@")" >/dev/null
		python3 -c 'import json, sys
for t in json.load(open(sys.argv[1]))["results"][0]["times"]: print(t)' \
			"hf.$label.json" >"times.$label"
	else
		# bash's clock, not GNU time's %e: that has 10 ms steps.
		local t0
		"$@" >/dev/null || die "$* failed"
		: >"times.$label"
		for ((i = 0; i < runs; i++)); do
			t0=$EPOCHREALTIME
			"$@" >/dev/null || die "$* failed"
			calc '"%.6f\n", '"$EPOCHREALTIME - $t0" >>"times.$label"
		done
	fi
}
# Prints "median min max" of a file of numbers, one a line.
med() { sort -g "$1" | awk '{ v[NR] = $1 } END {
	m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	print m, v[1], v[NR] }'; }
# Median of 3 peak RSS (kB) of CMD...
rss() {
	local i
	for i in 1 2 3; do
		/usr/bin/time -f %M -o time.tmp "$@" >/dev/null || die "$* failed"
		tail -n 1 time.tmp
	done >rss.tmp
	med rss.tmp | cut -d' ' -f1
}
calc() { awk "BEGIN { printf $1 }"; }
mb() { calc "\"%.1f\", $1 * 1.024 / 1000"; } # kB (KiB) -> MB
size_of() { stat -c %s "$1"; }

BIGMB=$(calc "\"%.1f\", $(size_of "$BIGF") / 1e6")
echo "== ncgrind vs floor on $(basename "$BIGF") ($BIGMB MB, $RUNS runs)"
timeit nc "$RUNS" "$NCGRIND" --dump=functions --format=tsv "$BIGF"
timeit floor "$RUNS" "$FLOOR" "$BIGF"
read -r NC_MED NC_MIN NC_MAX < <(med times.nc)
read -r FL_MED FL_MIN FL_MAX < <(med times.floor)
NC_MBS=$(calc "\"%.0f\", $BIGMB / $NC_MED")
FL_MBS=$(calc "\"%.0f\", $BIGMB / $FL_MED")
RATIO=$(calc "\"%.2f\", $NC_MED / $FL_MED")
NC_RSS=$(mb "$(rss "$NCGRIND" --dump=functions --format=tsv "$BIGF")")
FL_RSS=$(mb "$(rss "$FLOOR" "$BIGF")")
# One more run gives the index memory, and the TSV checked further down.
"$NCGRIND" --stats --dump=functions --format=tsv "$BIGF" >"out-$BIG.tsv" 2>stats.txt
STATS=$(grep 'index memory' stats.txt) || die "no 'index memory' line in ncgrind --stats output"
ANON_KB=$(echo "$STATS" | sed -n 's/.*RssAnon \([0-9]*\) kB.*/\1/p')
FILE_KB=$(echo "$STATS" | sed -n 's/.*RssFile \([0-9]*\) kB.*/\1/p')
[ -n "$ANON_KB" ] || die "no RssAnon in: $STATS"
ANON=$(mb "$ANON_KB")
ANON_PCT=$(calc "\"%.1f\", 100 * $ANON_KB * 1024 / $(size_of "$BIGF")")

printf '%-10s %9s %9s %9s %9s %11s\n' "" "median s" "min s" "max s" "MB/s" "peak RSS"
printf '%-10s %9.3f %9.3f %9.3f %9s %8s MB\n' ncgrind "$NC_MED" "$NC_MIN" "$NC_MAX" "$NC_MBS" "$NC_RSS"
printf '%-10s %9.3f %9.3f %9.3f %9s %8s MB\n' floor "$FL_MED" "$FL_MIN" "$FL_MAX" "$FL_MBS" "$FL_RSS"
echo "ratio ncgrind/floor: ${RATIO}x"
# Peak RSS counts the pages of the mapped file; RssAnon is what the index costs.
echo "index memory (RssAnon): $ANON MB = $ANON_PCT% of the file (RssFile $(mb "${FILE_KB:-0}") MB)"
echo "  $STATS"

echo
SMALLMB=$(calc "\"%.1f\", $(size_of "$SMALLF") / 1e6")
echo "== ncgrind vs callgrind_annotate on $(basename "$SMALLF") ($SMALLMB MB)"
timeit nc_small "$RUNS" "$NCGRIND" --dump=functions --format=tsv "$SMALLF"
read -r NS_MED NS_MIN NS_MAX < <(med times.nc_small)
printf '%-19s %9s %9s %9s %9s\n' "" "median s" "min s" "max s" "MB/s"
printf '%-19s %9.3f %9.3f %9.3f %9.0f\n' ncgrind "$NS_MED" "$NS_MIN" "$NS_MAX" \
	"$(calc "\"%f\", $SMALLMB / $NS_MED")"
if command -v callgrind_annotate >/dev/null; then
	timeit cga 2 callgrind_annotate --auto=no "$SMALLF"
	read -r CA_MED CA_MIN CA_MAX < <(med times.cga)
	CA_RATIO=$(calc "\"%.0f\", $CA_MED / $NS_MED")
	printf '%-19s %9.3f %9.3f %9.3f %9.1f\n' callgrind_annotate "$CA_MED" "$CA_MIN" "$CA_MAX" \
		"$(calc "\"%f\", $SMALLMB / $CA_MED")"
	echo "ratio callgrind_annotate/ncgrind: ${CA_RATIO}x"
else
	echo "callgrind_annotate not installed (valgrind package): skipped"
fi

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
		printf "expect-tsv: %d functions, %d self mismatches, %d incl mismatches", nwant, bs, bi
		printf " (%d missing, %d unexpected)\n", nwant - found, extra
		exit (bs || bi || found != nwant || extra) ? 1 : 0
	}' "$1" "$2"
}

echo
echo "== correctness (ncgrind --format=tsv vs the generator's exact TSV)"
BAD=0
CHECKED=""
if [ "$SMALL" != "$BIG" ]; then
	"$NCGRIND" --dump=functions --format=tsv "$SMALLF" >"out-$SMALL.tsv"
	echo "big-$SMALL:"
	if check "$WANT_SMALL" "out-$SMALL.tsv"; then CHECKED="$SMALL ok"; else BAD=1; CHECKED="$SMALL FAIL"; fi
fi
if [ "${BENCH_QUICK:-0}" = 1 ] && [ "$SMALL" != "$BIG" ]; then
	echo "big-$BIG: skipped (BENCH_QUICK=1)"
else
	echo "big-$BIG:"
	if check "$WANT_BIG" "out-$BIG.tsv"; then R="$BIG ok"; else BAD=1; R="$BIG FAIL"; fi
	CHECKED="${CHECKED:+$CHECKED, }$R"
fi

echo
echo "== summary ($(uname -m), $(nproc) CPUs; MB = 10^6 bytes; times are medians)"
echo "| measure | ncgrind | reference | ratio |"
echo "|---|---|---|---|"
printf '| %s functions tsv, wall | %.3f s (%.3f-%.3f) | floor %.3f s | %sx |\n' \
	"$BIG" "$NC_MED" "$NC_MIN" "$NC_MAX" "$FL_MED" "$RATIO"
echo "| $BIG throughput | $NC_MBS MB/s | floor $FL_MBS MB/s | |"
echo "| $BIG peak RSS | $NC_RSS MB | floor $FL_RSS MB | |"
echo "| $BIG index memory (RssAnon) | $ANON MB ($ANON_PCT% of file) | | |"
if [ -n "${CA_MED:-}" ]; then
	printf '| %s vs callgrind_annotate | %.3f s | %.1f s | %sx faster |\n' \
		"$SMALL" "$NS_MED" "$CA_MED" "$CA_RATIO"
fi
echo "| expected TSV | $CHECKED | gen_big.py --seed 1 | |"
exit "$BAD"
