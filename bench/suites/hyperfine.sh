#!/bin/sh
# bench/suites/hyperfine.sh: an extra suite of bench/guest-suite.sh (config
# key extra_suites="hyperfine"): enclave build times through
# bench/hyperfine-suite.sh.  Config key: build_ratios (default "0.5 1 2").
# The JSON stays in OUTDIR/hyperfine-POLICY-repI/; the result lines go to
# stdout without their policy factor, which guest-suite.sh adds with rep.
set -eu
build_ratios="0.5 1 2"
# shellcheck disable=SC1090
. "$BENCH_CONFIG"
here=$(cd "$(dirname "$0")/.." && pwd)
dir="$BENCH_OUT/hyperfine-$BENCH_POLICY-rep$BENCH_REP"
mkdir -p "$dir"
# shellcheck disable=SC2086	# a list of ratios
"$here/hyperfine-suite.sh" "$BENCH_EPC_PAGES" "$BENCH_KO" "$BENCH_BUILD/workloads/cli/isgx" \
	"$dir" $build_ratios >&2
sed 's/,policy=[^, ]*//' "$dir/results.txt"
