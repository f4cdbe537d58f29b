#!/bin/sh
# bench/suites/fio.sh: an extra suite of bench/guest-suite.sh (config key
# extra_suites="fio"): bench/fio-suite.sh with the module as the suite
# loaded it.  Config keys: fio_ratios (default "0.5 2"), fio_jobs (default:
# every job of bench/fio/), fio_runtime (seconds, default 3).  The JSON
# stays in OUTDIR/fio-POLICY-repI/; the result lines go to stdout without
# their policy factor, which guest-suite.sh adds with rep.
set -eu
fio_ratios="0.5 2" fio_jobs="" fio_runtime=3
# shellcheck disable=SC1090
. "$BENCH_CONFIG"
here=$(cd "$(dirname "$0")/.." && pwd)
dir="$BENCH_OUT/fio-$BENCH_POLICY-rep$BENCH_REP"
mkdir -p "$dir"
[ -z "$fio_jobs" ] || export ISGX_FIO_JOBS="$fio_jobs"
export ISGX_FIO_RUNTIME="$fio_runtime" ISGX_FIO_SEED="$BENCH_SEED"
# shellcheck disable=SC2086	# a list of ratios
"$here/fio-suite.sh" "$BENCH_EPC_PAGES" "$BENCH_KO" "$BENCH_BUILD/workloads/fio/isgx-fio.so" \
	"$dir" $fio_ratios >&2
sed 's/,policy=[^, ]*//' "$dir/results.txt"
