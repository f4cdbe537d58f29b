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
		# Not the next kernel's series (isgx_kver_next): stock is 6.1.
		case "$v" in 6.12.*) continue ;; esac
		best=$(printf '%s\n%s\n' "$best" "$v" | sed '/^$/d' | sort -V | tail -1)
	done
	[ -n "$best" ] || return 1
	echo "$best"
}

# isgx_kver_next: the version of Debian's next kernel (6.12, from
# bookworm-backports) whose headers scripts/setup unpacked into the cache
# (the newest if there are several; ISGX_KVER_NEXT overrides).
isgx_kver_next() {
	local d v cache best=
	cache=$(isgx_cache)
	if [ -n "${ISGX_KVER_NEXT:-}" ]; then
		[ -f "$cache/kernel/$ISGX_KVER_NEXT/headers/usr/src/linux-headers-$ISGX_KVER_NEXT/Makefile" ] ||
			return 1
		echo "$ISGX_KVER_NEXT"
		return 0
	fi
	for d in "$cache"/kernel/6.12.*-amd64; do
		v=${d##*/}
		[ -f "$d/headers/usr/src/linux-headers-$v/Makefile" ] || continue
		best=$(printf '%s\n%s\n' "$best" "$v" | sed '/^$/d' | sort -V | tail -1)
	done
	[ -n "$best" ] || return 1
	echo "$best"
}

# isgx_kdir_next: the headers tree of isgx_kver_next (KDIR for Kbuild).
isgx_kdir_next() {
	local v
	v=$(isgx_kver_next) || return 1
	echo "$(isgx_cache)/kernel/$v/headers/usr/src/linux-headers-$v"
}

# isgx_cache: the cache folder (created), outside the repository.
isgx_cache() {
	local c=${ISGX_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/isgx}
	mkdir -p "$c"
	(cd "$c" && pwd)
}
