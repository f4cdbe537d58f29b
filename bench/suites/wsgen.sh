#!/bin/sh
# shellcheck disable=SC2154	# patterns, ratios and accesses come from the config
# bench/suites/wsgen.sh: the working-set suite of bench/guest-suite.sh, run
# first for every policy and repeat when the config names patterns (the
# extra_suites come after it).  Every (pattern, ratio, threads) of the
# config runs wsgen once with seed BENCH_SEED, module loaded:
#
#   metric=faults factors=pattern=zipf,ratio=2.00,epc=1024,accesses=20480,seed=1,policy=default,rep=1 value=N unit=pages
#
# wsgen prints its own lines (it reads the debugfs counters around its
# measured pass; its --tag puts policy= and rep= before the per-metric
# factors, usable=, capacity=, slow_ns=, so guest-suite.sh keeps them as
# they are).  This suite's parser adds, with wsgen's factors:
#   run_nr_*   the counters' growth over the whole run (build and warm-up
#              included; not the high-water marks *_max)
#   fault_lat_p50/p99/mean/n  with perf_record=1 (source=perf): every
#              run under perf record -e
#              isgx:isgx_fault_begin,isgx:isgx_fault_end, begin and end
#              paired per task (the latencies in OUTDIR/perf/RUN.lat), and
#              the top symbols of cpu-clock profiles of kisgxswapd in
#              OUTDIR/perf/RUN.top.txt and of the wsgen process (its
#              faulting threads, user and kernel) in
#              OUTDIR/perf/RUN.wsgen.top.txt
# Each run's latency histogram goes to OUTDIR/lat/RUN.txt.  Config keys:
# patterns (a pattern may carry its own ratio: loop@1.25), ratios,
# accesses (auto: wsgen's default), threads (default 1), wsgen_args,
# perf_record (default 0).  Progress goes to stderr.
set -eu
threads=1 wsgen_args="" perf_record=0
# shellcheck disable=SC1090
. "$BENCH_CONFIG"
wsgen=$BENCH_WSGEN out=$BENCH_OUT policy=$BENCH_POLICY rep=$BENCH_REP s=$BENCH_SEED
dbg=/sys/kernel/debug/isgx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

die() { echo "wsgen suite: error: $*" >&2; exit 1; }

# ratios_of PATTERN: the ratios its runs use (loop@1.25: 1.25 only).
ratios_of() {
	case "$1" in *@*) echo "${1#*@}" ;; *) echo "$ratios" ;; esac
}

# counters: "name value" for every counter in debugfs (not the gauges).
counters() {
	for f in "$dbg"/nr_* "$dbg"/ns_*; do
		[ -f "$f" ] || continue
		cname=${f##*/}
		case "$cname" in nr_free_pages|nr_total_pages|nr_enclaves|nr_va_pages) continue ;; esac
		echo "$cname $(cat "$f")"
	done
}

# counter_lines BEFORE AFTER FACTORS: the differences over the whole run
# (build and warm-up included) as run_* metric lines; not the high-water
# marks (*_max), whose difference means nothing.
counter_lines() {
	awk -v factors="$3" '
	FNR == NR { before[$1] = $2; next }
	($1 in before) && $1 !~ /_max$/ {
		printf "metric=run_%s factors=%s value=%d unit=count\n", $1, factors, $2 - before[$1]
	}' "$1" "$2"
}

# percentiles FACTORS SOURCE PREFIX: p50, p99 and mean of the sorted
# latencies (ns, one a line) on stdin.
percentiles() {
	awk -v factors="$1,source=$2" -v m="$3" '
	{ v[NR] = $1; sum += $1 }
	END {
		if (!NR) exit
		i50 = int(0.50 * NR); if (i50 < 0.50 * NR) i50++
		i99 = int(0.99 * NR); if (i99 < 0.99 * NR) i99++
		printf "metric=%s_p50 factors=%s value=%d unit=ns\n", m, factors, v[i50]
		printf "metric=%s_p99 factors=%s value=%d unit=ns\n", m, factors, v[i99]
		printf "metric=%s_mean factors=%s value=%.0f unit=ns\n", m, factors, sum / NR
		printf "metric=%s_n factors=%s value=%d unit=faults\n", m, factors, NR
	}'
}

# run_perf NAME ARGS...: wsgen ARGS under perf (see the top), its output in
# $tmp/ws.txt.
run_perf() {
	name=$1
	shift
	swapd=$(pgrep -x kisgxswapd | head -1)
	[ -n "$swapd" ] || die "no kisgxswapd thread to profile"
	perf record -q -e cpu-clock -F 999 -p "$swapd" -o "$tmp/cpu.data" 2>"$tmp/perf-cpu.err" &
	cpu_pid=$!
	# perf takes a while to start under TCG: wait for its file (10 s).
	i=0
	while [ ! -s "$tmp/cpu.data" ] && [ "$i" -lt 50 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	# CLOCK_MONOTONIC: TCG's TSCs are unsynchronized, perf's default
	# clock is per CPU and a fault that sleeps may end on another one.
	# The inner perf profiles wsgen's own threads, where the faults run.
	perf record -q -a -k mono -e isgx:isgx_fault_begin,isgx:isgx_fault_end -o "$tmp/fault.data" -- \
		perf record -q -e cpu-clock -F 999 -o "$tmp/wsgen.data" -- \
		"$wsgen" "$@" >"$tmp/ws.txt" 2>"$tmp/perf-wsgen.err" ||
		{ cat "$tmp/perf-wsgen.err" >&2; die "wsgen failed under perf ($name)"; }
	# wsgen's own warnings (and perf's) are passed on, as without perf.
	cat "$tmp/perf-wsgen.err" >&2
	kill -INT "$cpu_pid" 2>/dev/null || true
	wait "$cpu_pid" || true
}

# perf_top DATA OUT WHAT RECORD_ERR: the top 30 symbols of cpu-clock
# profile DATA in OUT, or why there are none (RECORD_ERR: what its perf
# record said).
perf_top() {
	perf report -i "$1" --stdio --sort sym --no-children 2>"$tmp/report.err" |
		grep -v '^#' | sed '/^$/d' | head -30 >"$2" || true
	if [ ! -s "$2" ]; then
		{ echo "# no $3 profile: perf record / perf report said:"
		  cat "$4" "$tmp/report.err"; } >"$2"
	fi
}

# perf_lines NAME FACTORS: the fault latencies and the profiles of run NAME.
perf_lines() {
	perf script -i "$tmp/fault.data" -F tid,time,event --ns 2>/dev/null |
		awk '{
			t = $2; sub(/:$/, "", t)
			if ($3 ~ /isgx_fault_begin/) b[$1] = t
			else if ($3 ~ /isgx_fault_end/ && ($1 in b)) {
				printf "%.0f\n", (t - b[$1]) * 1e9; delete b[$1]
			}
		}' | sort -n >"$out/perf/$1.lat"
	percentiles "$2" perf fault_lat <"$out/perf/$1.lat"
	perf_top "$tmp/cpu.data" "$out/perf/$1.top.txt" kisgxswapd "$tmp/perf-cpu.err"
	perf_top "$tmp/wsgen.data" "$out/perf/$1.wsgen.top.txt" wsgen "$tmp/perf-wsgen.err"
	rm -f "$tmp/fault.data" "$tmp/cpu.data" "$tmp/wsgen.data"
}

# run_wsgen PATTERN RATIO THREADS: one run, its lines on stdout.
run_wsgen() {
	pattern=$1 ratio=$2 th=$3
	name="$policy-$pattern-$ratio-t$th-seed$s-rep$rep"
	acc=
	[ "$accesses" = auto ] || acc="--accesses=$accesses"
	args="--pattern=$pattern --ratio=$ratio $acc --threads=$th --seed=$s"
	args="$args --lat-hist=$out/lat/$name.txt $wsgen_args --tag=policy=$policy,rep=$rep"
	counters >"$tmp/before"
	if [ "$perf_record" = 1 ]; then
		# shellcheck disable=SC2086	# a list of arguments
		run_perf "$name" $args
	else
		# shellcheck disable=SC2086	# a list of arguments
		"$wsgen" $args >"$tmp/ws.txt" || die "wsgen failed ($name)"
	fi
	counters >"$tmp/after"
	cat "$tmp/ws.txt"
	factors=$(sed -n 's/^metric=faults factors=\([^ ]*\) .*/\1/p' "$tmp/ws.txt")
	[ -n "$factors" ] || die "wsgen printed no faults line ($name)"
	counter_lines "$tmp/before" "$tmp/after" "$factors"
	[ "$perf_record" = 0 ] || perf_lines "$name" "$factors"
}

runs=0
for p in $patterns; do
	runs=$((runs + $(ratios_of "$p" | wc -w) * $(echo "$threads" | wc -w)))
done
n=0
for p in $patterns; do
	for ratio in $(ratios_of "$p"); do
		for th in $threads; do
			n=$((n + 1))
			echo "bench: wsgen [$n/$runs] seed=$s epc=$BENCH_EPC_PAGES policy=$policy pattern=${p%%@*} ratio=$ratio threads=$th" >&2
			run_wsgen "${p%%@*}" "$ratio" "$th"
		done
	done
done
