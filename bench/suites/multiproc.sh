#!/bin/sh
# bench/suites/multiproc.sh: an extra suite of bench/guest-suite.sh (config
# key extra_suites="multiproc"): what the per-process fair shares and the
# 2016 driver's round robin are for.  A small active process (Zipf(0.99)
# over multiproc_small of the EPC, default 0.25) runs alone, then again
# while a hog (uniform over multiproc_hog of the EPC, default 2) pages
# through its own enclave: the small one's faults and access latencies
# alone and shared (role=small-alone, role=small-shared), the hog's swap
# rate (role=hog).  The small one starts once the hog has built its
# enclave (it is then in its warm-up pass, evicting), and the hog's pass is
# long enough (10x its working set) to outlast it.  The debugfs counters
# wsgen prints are global: in the shared run they include the hog's work.
set -eu
multiproc_small=0.25 multiproc_hog=2
# shellcheck disable=SC1090
. "$BENCH_CONFIG"
hog=
tmp=$(mktemp -d)
trap '[ -z "$hog" ] || kill "$hog" 2>/dev/null || :; rm -rf "$tmp"' EXIT
lat="$BENCH_OUT/lat"
mkdir -p "$lat"
name="$BENCH_POLICY-multiproc-seed$BENCH_SEED-rep$BENCH_REP"
small() {
	"$BENCH_WSGEN" --pattern=zipf --ratio="$multiproc_small" --seed="$BENCH_SEED" \
		--lat-hist="$lat/$name-$1.txt" --tag="role=$1" >"$tmp/$1.txt" ||
		{ echo "multiproc: the small process failed ($1)" >&2; cat "$tmp/$1.txt" >&2; exit 1; }
}
echo "multiproc: small process alone" >&2
small small-alone
echo "multiproc: hog ($multiproc_hog x EPC, uniform) and the small process" >&2
"$BENCH_WSGEN" --pattern=uniform --ratio="$multiproc_hog" --seed=$((BENCH_SEED + 1000)) \
	--tag=role=hog >"$tmp/hog.txt" 2>"$tmp/hog.err" &
hog=$!
i=0
until grep -q '^metric=build_time' "$tmp/hog.txt"; do
	kill -0 "$hog" 2>/dev/null || { echo "multiproc: the hog died" >&2; cat "$tmp/hog.err" >&2; exit 1; }
	i=$((i + 1))
	[ "$i" -lt 3000 ] || { echo "multiproc: the hog built nothing in 600 s" >&2; exit 1; }
	sleep 0.2
done
small small-shared
kill -0 "$hog" 2>/dev/null || echo "multiproc: warning: the hog ended before the small process" >&2
wait "$hog" || { echo "multiproc: the hog failed" >&2; cat "$tmp/hog.err" >&2; exit 1; }
hog=
cat "$tmp/small-alone.txt" "$tmp/small-shared.txt" "$tmp/hog.txt"
