# shellcheck shell=bash
# Helpers shared by the scripts; sourced, never run.

# isgx_kver: the version of Debian's stock amd64 kernel headers (ISGX_KVER overrides).
isgx_kver() {
	local d v best=
	# Debian's stock kernel: the one the linux-headers-amd64 package names
	# (a newer headers tree, e.g. from backports, is not the stock one).
	v=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
		sed -n 's/^linux-headers-\([^ ,]*-amd64\).*/\1/p')
	if [ -n "${ISGX_KVER:-}" ]; then
		v=$ISGX_KVER
	fi
	if [ -n "$v" ] && [ -d "/usr/src/linux-headers-$v" ]; then
		echo "$v"
		return 0
	fi
	for d in /usr/src/linux-headers-*-amd64; do
		[ -d "$d" ] || continue
		v=${d#/usr/src/linux-headers-}
		best=$(printf '%s\n%s\n' "$best" "$v" | sed '/^$/d' | sort -V | tail -1)
	done
	[ -n "$best" ] || return 1
	echo "$best"
}

# isgx_kver_next: the version of Debian's next kernel's headers (6.12, from
# bookworm-backports), the newest installed 6.12 amd64 tree (ISGX_KVER_NEXT
# overrides).  scripts/setup installs it.
isgx_kver_next() {
	local d v best=
	if [ -n "${ISGX_KVER_NEXT:-}" ]; then
		[ -d "/usr/src/linux-headers-$ISGX_KVER_NEXT" ] || return 1
		echo "$ISGX_KVER_NEXT"
		return 0
	fi
	for d in /usr/src/linux-headers-6.12.*-amd64; do
		[ -f "$d/Makefile" ] || continue
		v=${d#/usr/src/linux-headers-}
		case "$v" in *-rt-amd64|*-cloud-amd64) continue ;; esac
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
