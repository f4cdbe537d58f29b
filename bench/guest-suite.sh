#!/bin/sh
# bench/guest-suite.sh CONFIG KO WSGEN OUTDIR: runs inside the guest, in one
# boot.  For each policy of CONFIG, loads isgx.ko with it and runs every
# (pattern, ratio) of CONFIG through wsgen, appending wsgen's lines to
# OUTDIR/results.txt.  Progress goes to the console.
set -eu
config=$1 ko=$2 wsgen=$3 out=$4
. "$config"
res="$out/results.txt"
n=0
total=$(( $(echo $policies | wc -w) * $(echo $patterns | wc -w) * $(echo $ratios | wc -w) ))

# Floors from the ENCLS model's microbenchmark, when it is built.
test_ko=$(dirname "$ko")/tests/isgx_emu_test.ko
if [ -f "$test_ko" ]; then
	insmod "$ko" "epc_pages=$epc_pages"
	if insmod "$test_ko" 2>/dev/null && [ -r /sys/kernel/debug/isgx_emu_test/bench ]; then
		sed 's/^\(metric=[^ ]*\)/\1 factors=source=emu_bench/' \
			/sys/kernel/debug/isgx_emu_test/bench >>"$res"
		rmmod isgx_emu_test
	fi
	rmmod isgx
fi

for policy in $policies; do
	insmod "$ko" "epc_pages=$epc_pages" "policy=$policy"
	for pattern in $patterns; do
		for ratio in $ratios; do
			n=$((n + 1))
			echo "bench: [$n/$total] policy=$policy pattern=$pattern ratio=$ratio"
			"$wsgen" --pattern="$pattern" --ratio="$ratio" --accesses="$accesses" \
				--seed="$seed" --tag="policy=$policy" >>"$res"
		done
	done
	rmmod isgx
done
echo "bench: $n runs done"
