#!/bin/sh
# bench/guest-floor.sh KO OUTDIR: runs inside the guest.  Measures what the
# benchmark tree has so far: module load+unload time (hyperfine) and, when
# the ENCLS model's test module is built, its microbenchmark.  Writes
# OUTDIR/results.txt, one line per measurement:
#   metric=NAME factors=K=V,... value=NUMBER unit=UNIT
set -eu
ko=$1
out=$2
res="$out/results.txt"
: >"$res"
emit() { echo "metric=$1 factors=$2 value=$3 unit=$4" | tee -a "$res"; }

emit guest_boot_to_command "kernel=$(uname -r)" "$(cut -d' ' -f1 /proc/uptime)" s

hyperfine --style basic --warmup 2 --runs 20 --export-json "$out/load_unload.json" \
	"insmod $ko && rmmod isgx" >"$out/hyperfine.txt"
mean=$(sed -n 's/.*"mean": *\([0-9.e-]*\).*/\1/p' "$out/load_unload.json" | head -1)
sd=$(sed -n 's/.*"stddev": *\([0-9.e-]*\).*/\1/p' "$out/load_unload.json" | head -1)
emit module_load_unload_mean "runs=20" "$mean" s
emit module_load_unload_stddev "runs=20" "$sd" s

test_ko=$(dirname "$ko")/tests/isgx_emu_test.ko
if [ -f "$test_ko" ] && [ -d /sys/kernel/debug ]; then
	insmod "$ko"
	insmod "$test_ko"
	if [ -r /sys/kernel/debug/isgx_emu_test/bench ]; then
		cat /sys/kernel/debug/isgx_emu_test/bench | while read -r line; do
			echo "$line factors=source=emu_bench" | tee -a "$res"
		done
	fi
	rmmod isgx_emu_test
	rmmod isgx
fi
