#!/bin/sh
# shellcheck disable=SC2154	# epc_pages, policies... come from the config
# bench/guest-suite.sh CONFIG KO WSGEN OUTDIR: runs inside the guest, in one
# boot, and appends one line per measurement to OUTDIR/results.txt:
#	metric=NAME factors=K=V,...,rep=I value=NUMBER unit=UNIT
# Progress goes to the console.
#
# For each repeat I (1..repeats), in this order, so that slow drift of the
# machine spreads over every policy alike:
#   floors   the ENCLS model's microbenchmark (isgx_emu_test, when built:
#            gcm encrypt/decrypt, SHA-256, EWB, ELDU...) and the minor-fault
#            floor (minfault, next to wsgen), factors source=emu_bench|floor
#   for each policy: load isgx.ko with it, then
#     suites  bench/suites/wsgen.sh when the config names patterns (wsgen
#            for every pattern, ratio and thread count, with the run's
#            counters as run_nr_* and, with perf_record=1, perf's fault
#            latencies: see that file), then every name of extra_suites
#            (see below)
#     histogram  the module's fault_latency histogram is copied to
#            OUTDIR/fault_latency/POLICY-repI.txt and its p50/p99 (bucket
#            upper bounds) emitted as fault_hist_p50/p99, source=debugfs
#   unload the module.
#
# Config keys (a sourced sh file, bench/configs/*.conf):
#   epc_pages policies patterns ratios accesses seed   as before; policies is
#            a list of isgx policy= values, each optionally with module
#            parameters: default+batch=16 loads policy=default batch=16
#            (the factor policy= is the whole word); a pattern may carry
#            its own ratio, loop@1.25, instead of every ratio of ratios;
#            accesses=auto leaves wsgen's default (10 x the working set)
#   threads="1 2 4"  (default 1) every run once per thread count
#   epc_pages="2048 16384"  several sizes: every policy's runs once per
#            size (the floors use the first); scripts/bench boots the guest
#            with guest_mem (default 2G) of memory
#   repeats=N        (default 1) every run N times, factor rep=1..N
#   repeat_seed=vary (default) repeat I plays seed+I-1: seeds are the unit
#            of replication (bench/compare pairs the runs by seed); =same
#            replays the trace of seed every time, which measures only the
#            pager's timing noise on one trace
#   perf_record=1    (default 0) every wsgen run under
#            perf record -e isgx:isgx_fault_begin,isgx:isgx_fault_end: begin/end paired
#            per task give fault_lat_p50/p99/mean (source=perf, the
#            latencies in OUTDIR/perf/RUN.lat), and cpu-clock profiles of
#            kisgxswapd and of the wsgen process (its faulting threads)
#            whose top symbols go to OUTDIR/perf/RUN.top.txt and
#            OUTDIR/perf/RUN.wsgen.top.txt.
#            perf slows the runs: compare only with perf_record=1 runs.
#   wsgen_args="..." extra arguments for every wsgen run
#   extra_suites="NAME ..."  run bench/suites/NAME.sh (or a path) with sh
#            for every policy and repeat, module loaded, environment
#            BENCH_CONFIG BENCH_KO BENCH_WSGEN BENCH_BUILD BENCH_OUT
#            BENCH_POLICY BENCH_REP BENCH_SEED BENCH_EPC_PAGES; the suite
#            prints metric lines on stdout (policy= and rep= are appended
#            to their factors here, unless a line names its rep= already,
#            as wsgen's do) and fails with a non-zero status.
set -eu
config=$1 ko=$2 wsgen=$3 out=$4
repeats=1 repeat_seed=vary perf_record=0 extra_suites=""
# shellcheck disable=SC1090
. "$config"
res="$out/results.txt"
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$(dirname "$ko")/../.." && pwd)
dbg=/sys/kernel/debug/isgx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

die() { echo "guest-suite: error: $*" >&2; exit 1; }
for k in epc_pages policies ratios accesses seed; do
	eval "v=\${$k:-}"
	[ -n "$v" ] || die "$config sets no $k"
done
[ -n "${patterns:-}" ] || [ -n "$extra_suites" ] || die "$config sets no patterns and no extra_suites"
patterns=${patterns:-}
case "$repeats" in ''|*[!0-9]*|0) die "repeats must be a positive integer, not '$repeats'" ;; esac
case "$repeat_seed" in same|vary) ;; *) die "repeat_seed must be same or vary, not '$repeat_seed'" ;; esac
case "$perf_record" in 0|1) ;; *) die "perf_record must be 0 or 1, not '$perf_record'" ;; esac
if [ "$perf_record" = 1 ]; then
	command -v perf >/dev/null || die "perf_record=1 but perf is not installed"
	mkdir -p "$out/perf"
fi
for s in $extra_suites; do
	case "$s" in */*) f=$s ;; *) f=$here/suites/$s.sh ;; esac
	[ -f "$f" ] || die "extra suite '$s': no $f"
done
mkdir -p "$out/fault_latency" "$out/lat"

# The suites of every policy: wsgen's when there are patterns, then the extras.
suites=$extra_suites
[ -z "$patterns" ] || suites="wsgen $suites"
steps=$(( repeats * $(echo "$policies" | wc -w) * $(echo "$epc_pages" | wc -w) ))
step=0
first_epc=${epc_pages%% *}

# tag_lines TAGS: metric lines of stdin with TAGS appended to their factors
# (but for the lines whose factors name a rep= already).
tag_lines() {
	awk -v tags="$1" '
	/^metric=.* factors=([^ ]*,)?rep=/ { print; next }
	/^metric=/ {
		if ($0 ~ / factors=/) sub(/ factors=[^ ]*/, "&," tags)
		else sub(/^metric=[^ ]*/, "& factors=" tags)
		print
	}'
}

# hist_percentiles FACTORS < fault_latency: p50 and p99 of the module's
# histogram (8 buckets per power of two), as the upper bound of the bucket
# that holds them.
hist_percentiles() {
	awk -v factors="$1,source=debugfs" '
	{ split($1, a, "="); split($2, b, "="); ub[NR] = a[2]; c[NR] = b[2]; total += b[2] }
	END {
		if (!total) exit
		for (i = 1; i <= NR; i++) {
			cum += c[i]
			if (!p50 && cum >= 0.50 * total) p50 = ub[i]
			if (!p99 && cum >= 0.99 * total) p99 = ub[i]
		}
		printf "metric=fault_hist_p50 factors=%s value=%s unit=ns\n", factors, p50
		printf "metric=fault_hist_p99 factors=%s value=%s unit=ns\n", factors, p99
	}'
}

# run_suite NAME POLICY REP SEED
run_suite() {
	case "$1" in */*) f=$1 ;; *) f=$here/suites/$1.sh ;; esac
	echo "bench: [$step/$steps] suite $1 policy=$2 rep=$3 epc=$epc"
	BENCH_CONFIG=$config BENCH_KO=$ko BENCH_WSGEN=$wsgen BENCH_BUILD=$build \
	BENCH_OUT=$out BENCH_POLICY=$2 BENCH_REP=$3 BENCH_SEED=$4 BENCH_EPC_PAGES=$epc \
		sh "$f" >"$tmp/suite.txt" || {
		# What the suite measured before it failed stays in the results.
		tag_lines "policy=$2,rep=$3" <"$tmp/suite.txt" >>"$res"
		die "suite $1 failed (policy=$2 rep=$3)"
	}
	tag_lines "policy=$2,rep=$3" <"$tmp/suite.txt" >>"$res"
}

test_ko=$(dirname "$ko")/tests/isgx_emu_test.ko
minfault=$(dirname "$wsgen")/minfault
rep=1
while [ "$rep" -le "$repeats" ]; do
	s=$seed
	[ "$repeat_seed" = vary ] && s=$((seed + rep - 1))

	# The floors of this repeat.
	if [ -f "$test_ko" ]; then
		insmod "$ko" "epc_pages=$first_epc"
		if insmod "$test_ko" 2>/dev/null && [ -r /sys/kernel/debug/isgx_emu_test/bench ]; then
			cat /sys/kernel/debug/isgx_emu_test/bench >"$tmp/emu.txt"
			rmmod isgx_emu_test
			grep -q '^# bench failed' "$tmp/emu.txt" && die "emu bench: $(cat "$tmp/emu.txt")"
			tag_lines "source=emu_bench,rep=$rep" <"$tmp/emu.txt" >>"$res"
		fi
		rmmod isgx
	fi
	[ -x "$minfault" ] && "$minfault" --tag="rep=$rep" >>"$res"

	for epc in $epc_pages; do
	for policy in $policies; do
		# default+batch=16: policy=default batch=16
		# shellcheck disable=SC2046
		insmod "$ko" "epc_pages=$epc" "policy=${policy%%+*}" \
			$(case "$policy" in *+*) echo "${policy#*+}" | tr '+' ' ' ;; esac) ||
			die "insmod with policy $policy failed"
		step=$((step + 1))
		for suite in $suites; do
			run_suite "$suite" "$policy" "$rep" "$s"
		done
		cp "$dbg/fault_latency" "$out/fault_latency/$policy-epc$epc-rep$rep.txt"
		hist_percentiles "policy=$policy,rep=$rep,epc=$epc" \
			<"$out/fault_latency/$policy-epc$epc-rep$rep.txt" >>"$res"
		rmmod isgx
	done
	done
	rep=$((rep + 1))
done
echo "bench: $step policy runs done"
