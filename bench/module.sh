# bench/module.sh: sourced by the in-guest suites (fio-suite.sh,
# hyperfine-suite.sh), which define die() first.
# shellcheck shell=sh

# check_ratios RATIO...: each a number in (0, 16].
check_ratios() {
	for r in "$@"; do
		awk -v r="$r" 'BEGIN { exit !(r + 0 > 0 && r + 0 <= 16) }' ||
			die "ratio '$r' must be a number in (0, 16]"
	done
}

# use_module KO EPC_PAGES: the module as it is when loaded (its EPC must be
# EPC_PAGES), else KO loaded here and unloaded at exit, also on failure.
# Sets dbg and policy.
use_module() {
	loaded_here=0
	trap '[ "$loaded_here" = 0 ] || rmmod isgx' EXIT
	if [ ! -d /sys/module/isgx ]; then
		insmod "$1" "epc_pages=$2" || die "insmod $1 failed"
		loaded_here=1
	fi
	dbg=/sys/kernel/debug/isgx
	[ -r "$dbg/nr_total_pages" ] || die "$dbg is not readable (debugfs not mounted, or not root)"
	total=$(cat "$dbg/nr_total_pages")
	[ "$total" = "$2" ] || die "isgx is loaded with $total EPC pages, not $2"
	# shellcheck disable=SC2034 # read by the suites that source this file
	policy=$(cat /sys/module/isgx/parameters/policy)
}
