#!/bin/bash
# check.sh - the static checks a netdev maintainer runs on kernel-series:
#   1. scripts/checkpatch.pl --strict on every patch of both series;
#   2. a W=1 build of every C file the series touches, on the base tree and
#      after each patch that changes the kernel: no warning may be new.
# Runs in a scratch worktree of the cached tree that qemu/build-kernel.sh
# unpacks (${VXGBP_CACHE:-/var/cache/vxgbp}/linux, tag vxgbp-base), never in
# this repository.
# usage: check.sh [--checkpatch-only]
#
# UNKNOWN_COMMIT_ID is ignored: the cached tree has one commit (the Debian
# tarball), so checkpatch cannot look up the hashes of Fixes: tags and of
# "commit ... upstream." lines; kernel-series/UPSTREAM.md says how each was
# verified.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${VXGBP_CACHE:-/var/cache/vxgbp}
tree=$cache/linux
git -C "$tree" rev-parse -q --verify vxgbp-base >/dev/null ||
	{ echo "check: no cached tree; run qemu/build-kernel.sh first" >&2; exit 2; }
exec 9>"$cache/.check.lock"
flock 9
wt=$cache/check
git -C "$tree" worktree remove -f "$wt" >/dev/null 2>&1 || rm -rf "$wt"
git -C "$tree" worktree prune
git -C "$tree" worktree add -q --detach "$wt" vxgbp-base
patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/series" | sed "s|^|$here/|")
fail=0

# --- 1. checkpatch ------------------------------------------------------------
for p in $patches; do
	out=$(cd "$wt" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict -q \
		--ignore UNKNOWN_COMMIT_ID "$p" 2>&1) || true
	# a new file under tools/testing/selftests/net/ is already covered by
	# NETWORKING [GENERAL] in MAINTAINERS
	out=$(printf '%s\n' "$out" | grep -E '^(ERROR|WARNING|CHECK):' |
		grep -v 'does MAINTAINERS need updating' || true)
	if [ -n "$out" ]; then
		echo "check: checkpatch ${p#"$here"/}:"; echo "$out"; fail=1
	else
		echo "check: checkpatch ${p#"$here"/}: clean"
	fi
done
if [ "${1:-}" = --checkpatch-only ]; then
	git -C "$tree" worktree remove -f "$wt"
	exit $fail
fi

# --- 2. W=1 on the touched C files, base vs. patched --------------------------
objs=$(for p in $patches; do
	sed -n 's|^+++ b/\(.*\)\.c$|\1.o|p' "$p"
done | grep -v '^tools/' | sort -u)
obj=$cache/w1
mkdir -p "$obj"
cp "$cache/cfg/.config" "$obj/.config"
cc="gcc"; command -v ccache >/dev/null && cc="ccache gcc"
export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache} CCACHE_BASEDIR=$cache
w1() { # label
	make -s -C "$wt" O="$obj" CC="$cc" HOSTCC="$cc" olddefconfig >/dev/null
	make -s -C "$wt" O="$obj" CC="$cc" HOSTCC="$cc" -j"$(nproc)" prepare >/dev/null 2>&1
	rm -f $(for o in $objs; do echo "$obj/$o"; done)
	make -C "$wt" O="$obj" CC="$cc" HOSTCC="$cc" W=1 -j"$(nproc)" $objs 2>&1 |
		grep -E 'warning:' | sed "s|$wt/||; s|:[0-9]*:[0-9]*:|:|" | sort >"$obj/$1.warnings" || true
	echo "check: W=1 $1: $(wc -l <"$obj/$1.warnings") warnings in $(echo $objs | wc -w) files"
}
w1 base
n=0
for p in $patches; do
	n=$((n + 1))
	git -C "$wt" am -q --keep-cr "$p"
	# every patch that changes the kernel builds W=1 clean on its own
	grep -q '^+++ b/\(tools\|Documentation\)/' "$p" &&
		! grep '^+++ b/' "$p" | grep -qv '^+++ b/\(tools\|Documentation\)/' && continue
	w1 "patch-$n"
	new=$(comm -13 "$obj/base.warnings" "$obj/patch-$n.warnings")
	if [ -n "$new" ]; then
		echo "check: new W=1 warnings after ${p#"$here"/}:"; echo "$new"; fail=1
	fi
done
[ $fail = 0 ] && echo "check: W=1: no new warning after any patch ($(echo $objs))"
git -C "$tree" worktree remove -f "$wt"
[ $fail = 0 ] && echo "check: PASS" || echo "check: FAIL"
exit $fail
