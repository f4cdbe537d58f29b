# shellcheck shell=bash
# Helpers shared by the scripts; sourced, never run.

# isgx_kver: the version of the newest installed Debian amd64 kernel headers.
isgx_kver() {
	local d v best=
	for d in /usr/src/linux-headers-*-amd64; do
		[ -d "$d" ] || continue
		v=${d#/usr/src/linux-headers-}
		best=$(printf '%s\n%s\n' "$best" "$v" | sed '/^$/d' | sort -V | tail -1)
	done
	[ -n "$best" ] || return 1
	echo "$best"
}

# isgx_cache: the cache folder (created), outside the repository.
isgx_cache() {
	local c=${ISGX_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/isgx}
	mkdir -p "$c"
	(cd "$c" && pwd)
}
