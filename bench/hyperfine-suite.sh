#!/bin/sh
# bench/hyperfine-suite.sh EPC_PAGES KO ISGX_CLI OUTDIR [RATIO...]: runs
# inside the guest.  Times whole enclave builds with hyperfine: `isgx build
# --pages N --debug` (ISGX_CLI, the isgx command) opens /dev/sgx, creates
# the enclave, adds N pages, signs it, initialises it and destroys it, for
# N = RATIO x EPC_PAGES (default ratios "0.5 1 2"; above 1 the build
# itself makes the pager evict).  Appends to OUTDIR/results.txt:
#
#   metric=build_time_mean   factors=source=hyperfine,ratio=2.00,epc=256,pages=512,eextend=1,policy=default,runs=5 value=S unit=s
#   metric=build_time_stddev ...   (and _median, _min, _max)
#
# eextend=1 measures every page (16 EEXTENDs each), eextend=0 adds them
# with --skip-eextend.  If isgx is loaded already, it is used as it is
# (its EPC must be EPC_PAGES); otherwise KO is loaded with
# epc_pages=EPC_PAGES and unloaded at the end.  hyperfine's JSON stays in
# OUTDIR/hyperfine/.  Environment (optional):
#   ISGX_HF_RUNS      measured runs per size (default 5)
#   ISGX_HF_WARMUP    warm-up runs per size (default 1)
#   ISGX_HF_EEXTEND   which of "1 0" to run (default both)
set -eu
die() { echo "hyperfine-suite: error: $*" >&2; exit 1; }
[ $# -ge 4 ] || die "usage: hyperfine-suite.sh EPC_PAGES KO ISGX_CLI OUTDIR [RATIO...]"
epc=$1 ko=$2 cli=$3 out=$4
shift 4
ratios=${*:-0.5 1 2}
here=$(cd "$(dirname "$0")" && pwd)
runs=${ISGX_HF_RUNS:-5}
warmup=${ISGX_HF_WARMUP:-1}
eextends=${ISGX_HF_EEXTEND:-1 0}

case $epc in '' | *[!0-9]*) die "EPC_PAGES must be a number, not '$epc'" ;; esac
case $runs in '' | *[!0-9]* | 0) die "ISGX_HF_RUNS must be a positive number" ;; esac
case $warmup in '' | *[!0-9]*) die "ISGX_HF_WARMUP must be a number" ;; esac
[ -x "$cli" ] || die "no isgx command at $cli (build the isgx_cli target)"
command -v hyperfine >/dev/null || die "hyperfine is not installed"
for x in $eextends; do
	case $x in 0 | 1) ;; *) die "ISGX_HF_EEXTEND takes 1 and/or 0, not '$x'" ;; esac
done
# shellcheck source=bench/module.sh
. "$here/module.sh"
# shellcheck disable=SC2086	# a list of ratios
check_ratios $ratios
mkdir -p "$out/hyperfine"
res="$out/results.txt"

use_module "$ko" "$epc"

for r in $ratios; do
	# Pages added: ratio x EPC, at least the TCS and its SSA page.
	pages=$(awk -v r="$r" -v e="$epc" 'BEGIN { p = int(r * e); print p < 2 ? 2 : p }')
	ratio=$(awk -v r="$r" 'BEGIN { printf "%.2f", r }')
	for x in $eextends; do
		skip=
		[ "$x" = 1 ] || skip=" --skip-eextend"
		cmd="$cli build --pages $pages --debug$skip"
		json="$out/hyperfine/build-r$ratio-e$x-$policy.json"
		echo "hyperfine-suite: policy=$policy ratio=$ratio pages=$pages eextend=$x"
		# Every run must succeed: hyperfine stops at the first failing one.
		hyperfine --shell=none --style basic --runs "$runs" --warmup "$warmup" \
			--export-json "$json" "$cmd" ||
			die "hyperfine failed for '$cmd' (run it by hand to see why)"
		"$here/hyperfine-parse" "$json" --metric build_time \
			--factors "source=hyperfine,ratio=$ratio,epc=$epc,pages=$pages,eextend=$x,policy=$policy" \
			>>"$res" || die "no result from $json"
	done
done
if [ "$loaded_here" = 1 ]; then
	loaded_here=0
	rmmod isgx
fi
echo "hyperfine-suite: done"
