#!/bin/sh
# bench/fio-suite.sh EPC_PAGES KO ENGINE OUTDIR [RATIO...]: runs inside the
# guest.  For every working-set RATIO (multiples of the EPC; default
# "0.5 2") it checks the isgx ioengine (ENGINE, isgx-fio.so) with fio's
# verify job, then runs every bench/fio/*.fio job and appends its
# completion latency (p50, p99, p99.9, mean), IOPS, bandwidth and the pages
# the pager loaded back during the job to OUTDIR/results.txt:
#
#   metric=fio_clat_p99 factors=source=fio,job=zipf,ratio=2.00,epc=256,policy=default,ddir=read value=N unit=ns
#   metric=fio_faults   factors=source=fio,job=zipf,ratio=2.00,epc=256,policy=default value=N unit=pages
#
# If isgx is loaded already, it is used as it is (the caller chose its
# policy; its EPC must be EPC_PAGES); otherwise KO is loaded with
# epc_pages=EPC_PAGES and unloaded at the end.  fio's JSON stays in
# OUTDIR/fio/.  Environment (optional):
#   ISGX_FIO_JOBS      job names (default: every bench/fio/*.fio)
#   ISGX_FIO_RUNTIME   measured seconds per job (default 3)
#   ISGX_FIO_RAMP      warm-up seconds per job, not measured (default 1)
#   ISGX_FIO_SEED      fio's randseed (default 1)
#   ISGX_FIO_VERIFY    0 skips the verify job (default 1)
set -eu
die() { echo "fio-suite: error: $*" >&2; exit 1; }
[ $# -ge 4 ] || die "usage: fio-suite.sh EPC_PAGES KO ENGINE OUTDIR [RATIO...]"
epc=$1 ko=$2 engine=$3 out=$4
shift 4
ratios=${*:-0.5 2}
here=$(cd "$(dirname "$0")" && pwd)
jobdir="$here/fio"
runtime=${ISGX_FIO_RUNTIME:-3}
ramp=${ISGX_FIO_RAMP:-1}
seed=${ISGX_FIO_SEED:-1}
jobs=${ISGX_FIO_JOBS:-$(for f in "$jobdir"/*.fio; do basename "$f" .fio; done)}
verify_job="$here/../workloads/fio/verify.fio"

case $epc in '' | *[!0-9]*) die "EPC_PAGES must be a number, not '$epc'" ;; esac
[ -f "$engine" ] || die "no ioengine at $engine (build the isgx_fio target)"
command -v fio >/dev/null || die "fio is not installed"
for j in $jobs; do
	[ -f "$jobdir/$j.fio" ] || die "no job file $jobdir/$j.fio"
done
# shellcheck source=bench/module.sh
. "$here/module.sh"
# shellcheck disable=SC2086	# a list of ratios
check_ratios $ratios
mkdir -p "$out/fio"
res="$out/results.txt"

use_module "$ko" "$epc"

# run_fio JOBFILE JSON SIZE: fio with the job's environment.
run_fio() {
	ISGX_FIO_ENGINE=$engine ISGX_SIZE=$3 ISGX_RUNTIME=$runtime ISGX_RAMP=$ramp \
		ISGX_SEED=$seed fio --eta=never --output-format=json --output="$2" "$1"
}

n=0
total_runs=$(( $(echo "$ratios" | wc -w) * $(echo "$jobs" | wc -w) ))
for r in $ratios; do
	# Data pages: ratio x EPC (the TCS, its SSA page and the SECS come on top).
	pages=$(awk -v r="$r" -v e="$epc" 'BEGIN { p = int(r * e); print p < 1 ? 1 : p }')
	size=$((pages * 4096))
	ratio=$(awk -v r="$r" 'BEGIN { printf "%.2f", r }')
	if [ "${ISGX_FIO_VERIFY:-1}" != 0 ]; then
		echo "fio-suite: verify ratio=$ratio ($pages pages)"
		run_fio "$verify_job" "$out/fio/verify-r$ratio.json" "$size" ||
			die "the verify job failed at ratio $ratio: see $out/fio/verify-r$ratio.json"
		"$here/fio-parse" "$out/fio/verify-r$ratio.json" >/dev/null ||
			die "the verify job failed at ratio $ratio"
	fi
	for j in $jobs; do
		n=$((n + 1))
		echo "fio-suite: [$n/$total_runs] policy=$policy job=$j ratio=$ratio ($pages pages)"
		json="$out/fio/$j-r$ratio-$policy.json"
		factors="source=fio,job=$j,ratio=$ratio,epc=$epc,policy=$policy"
		l0=$(cat "$dbg/nr_loaded")
		run_fio "$jobdir/$j.fio" "$json" "$size" || die "fio failed for $j at ratio $ratio: see $json"
		l1=$(cat "$dbg/nr_loaded")
		lines=$("$here/fio-parse" "$json" --factors "$factors") || die "no result from $json"
		# Pages loaded back during the whole job (enclave build, warm-up and
		# the measured time).
		printf '%s\nmetric=fio_faults factors=%s value=%s unit=pages\n' \
			"$lines" "$factors" $((l1 - l0)) >>"$res"
	done
done
if [ "$loaded_here" = 1 ]; then
	loaded_here=0
	rmmod isgx
fi
echo "fio-suite: $n runs done"
