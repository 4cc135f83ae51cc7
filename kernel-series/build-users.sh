#!/bin/bash
# build-users.sh - build every user of the kernel headers the series touches
# (net-next/0001 changes include/net/vxlan.h, which mlx5's encap offload
# and a few dozen other drivers include), on the base tree and with the
# whole series applied; fail on a build error or on a warning that only the
# patched tree has.
#
# The users are the .c files that include a touched header directly, and
# the .c files of the drivers whose own headers include it (ice.h,
# spectrum.h, flower/cmsg.h: the whole driver directory is built).  The
# config is x86_64 defconfig + COMPILE_TEST + the options of those drivers
# (kernel-series/users.config), in its own object tree
# ($VXGBP_CACHE/users), never qemu/vxgbp.config: that one stays the single
# config of the test kernels.  Sources: a scratch worktree of the cached
# tree ($VXGBP_CACHE/linux, tag vxgbp-base), as check.sh uses.
# usage: build-users.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${VXGBP_CACHE:-/var/cache/vxgbp}
tree=$cache/linux
jobs=${VXGBP_JOBS:-$(nproc)}
git -C "$tree" rev-parse -q --verify vxgbp-base >/dev/null ||
	{ echo "users: no cached tree; run qemu/build-kernel.sh first" >&2; exit 2; }
exec 9>"$cache/.users.lock"
flock 9
wt=$cache/users-src obj=$cache/users
git -C "$tree" worktree remove -f "$wt" >/dev/null 2>&1 || rm -rf "$wt"
git -C "$tree" worktree prune
git -C "$tree" worktree add -q --detach "$wt" vxgbp-base
trap 'git -C "$tree" worktree remove -f "$wt"' EXIT
patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/series" | sed "s|^|$here/|")
headers=$(for p in $patches; do sed -n 's|^+++ b/\(include/.*\.h\)$|\1|p' "$p"; done | sort -u)
[ -n "$headers" ] || { echo "users: the series touches no header under include/"; exit 0; }

# users: direct includers, plus every .c next to a driver header that
# includes a touched header (one level, what these drivers do)
users() {
	local h inc c
	for h in $headers; do
		inc=${h#include/}
		for c in $(git -C "$wt" grep -l "#include <$inc>" -- '*.c' '*.h' ':!tools'); do
			case "$c" in
			*.c) echo "${c%.c}.o" ;;
			*.h) (cd "$wt" && git ls-files "$(dirname "$c")/*.c" |
				xargs grep -l "#include \"\(.*/\)\?$(basename "$c")\"" |
				sed 's/\.c$/.o/') || true ;;
			esac
		done
	done | sort -u
}
objs=$(users)
echo "users: headers: $headers"
echo "users: $(echo "$objs" | wc -l) objects"

mkdir -p "$obj"
build() { # label
	make -s -C "$wt" O="$obj" defconfig >/dev/null
	"$wt"/scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" \
		"$here/users.config" >/dev/null
	make -s -C "$wt" O="$obj" olddefconfig >/dev/null
	make -s -C "$wt" O="$obj" -j"$jobs" prepare >/dev/null 2>&1
	rm -f $(for o in $objs; do echo "$obj/$o"; done)
	make -k -C "$wt" O="$obj" -j"$jobs" $objs >"$obj/$1.log" 2>&1 || true
	grep -E 'warning:|error:' "$obj/$1.log" | sed "s|$wt/||; s|:[0-9]*:[0-9]*:|:|" |
		sort >"$obj/$1.diag" || true
	local built=0 o
	for o in $objs; do [ -f "$obj/$o" ] && built=$((built + 1)); done
	echo "users: $1: $built of $(echo "$objs" | wc -w) objects built," \
		"$(grep -c 'error:' "$obj/$1.diag" || true) errors, $(grep -c 'warning:' "$obj/$1.diag" || true) warnings"
	echo "$built" >"$obj/$1.built"
}
cfgcheck() { # every =y of users.config must survive olddefconfig
	local bad=0 line
	while IFS= read -r line; do
		case "$line" in CONFIG_*=y) grep -qxF "$line" "$obj/.config" ||
			{ echo "users: not in .config: $line"; bad=1; } ;; esac
	done <"$here/users.config"
	return $bad
}
t0=$(date +%s)
build base
cfgcheck
for p in $patches; do git -C "$wt" am -q --keep-cr "$p"; done
build patched
fail=0
[ "$(cat "$obj/base.built")" = "$(echo "$objs" | wc -w)" ] || fail=1
[ "$(cat "$obj/patched.built")" = "$(echo "$objs" | wc -w)" ] || fail=1
new=$(comm -13 "$obj/base.diag" "$obj/patched.diag")
[ -z "$new" ] || { echo "users: new diagnostics with the series:"; echo "$new"; fail=1; }
echo "users: $( [ $fail = 0 ] && echo PASS || echo FAIL) in $(( $(date +%s) - t0 ))s"
exit $fail
