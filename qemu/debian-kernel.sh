#!/bin/bash
# debian-kernel.sh - Debian's own binary kernels as vxgbp test guests.
#
# usage: debian-kernel.sh KIND           fetch (or reuse) and print the dir
#        debian-kernel.sh --package KIND print the package it would use
#   KIND: debian-6.1   the ABI linux-image-amd64 depends on (bookworm's 6.1)
#         debian-6.12  the newest linux-image-6.12.*+deb12-amd64 (backport)
#   VXGBP_DEBIAN_6_1 / VXGBP_DEBIAN_6_12 name another package instead.
#
# `apt-get download` + `dpkg-deb -x` into a scratch folder (never installed,
# never loaded into this machine's kernel), then keeps, in
#   $VXGBP_CACHE/debian-kernels/<package>_<version>/
# vmlinuz (the package's own), version (package and version), release
# (uname -r) and modules.cpio: the modules of qemu/debian-modules with their
# dependencies (the modules.dep that depmod -b makes of the
# package's tree, as its postinst would), decompressed (.ko.xz, .ko.zst)
# so the guest's busybox insmod loads them, as /lib/modules/vxgbp/*.ko plus
# /lib/modules/vxgbp/load (one file a line, dependencies first), a cpio
# archive that run.sh appends to the initramfs.  The .deb and the unpacked
# tree are deleted: the folder is ~10 MB.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${VXGBP_CACHE:-/var/cache/vxgbp}/debian-kernels

package_of() {
	local p
	case "$1" in
	debian-6.1)
		p=${VXGBP_DEBIAN_6_1:-$(apt-cache depends linux-image-amd64 2>/dev/null |
			sed -n 's/^ *Depends: \(linux-image-[0-9.-]*-amd64\)$/\1/p' | head -1)} ;;
	debian-6.12)
		p=${VXGBP_DEBIAN_6_12:-$(apt-cache pkgnames linux-image-6.12. 2>/dev/null |
			grep -E '^linux-image-6\.12\.[0-9]+\+deb12-amd64$' | sort -V | tail -1)} ;;
	*) echo "debian-kernel: unknown kind $1 (debian-6.1, debian-6.12)" >&2; return 2 ;;
	esac
	[ -n "$p" ] || { echo "debian-kernel: no package for $1 (apt-get update?)" >&2; return 1; }
	echo "$p"
}

case "${1:-}" in
--package) package_of "${2:?kind}"; exit ;;
debian-*) kind=$1 ;;
*) sed -n '2,20p' "$0" >&2; exit 2 ;;
esac
pkg=$(package_of "$kind")
ver=$(apt-cache policy "$pkg" | sed -n 's/^ *Candidate: //p')
[ -n "$ver" ] && [ "$ver" != "(none)" ] || { echo "debian-kernel: $pkg has no candidate" >&2; exit 1; }
# the module list is part of the key: a new module means a new archive
key=$(cat "$here/debian-modules" "$here/debian-kernel.sh" | sha256sum | cut -c1-8)
dir=$cache/${pkg}_${ver}-$key
if [ -f "$dir/done" ]; then echo "$dir"; exit 0; fi

t0=$(date +%s)
mkdir -p "$cache"
work=$(mktemp -d "$cache/.work.XXXXXX")
trap 'rm -rf "$work"' EXIT
# (as root into a folder _apt cannot write: apt says so, harmlessly)
(cd "$work" && apt-get -q download "$pkg=$ver" 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2
	[ "${PIPESTATUS[0]}" = 0 ]) || { echo "debian-kernel: apt-get download $pkg failed" >&2; exit 77; }
t1=$(date +%s)
dpkg-deb -x "$work"/*.deb "$work/root"
rel=$(ls "$work/root/lib/modules")
mdir=$work/root/lib/modules/$rel
# the package leaves modules.dep to its postinst: depmod on the unpacked tree
# (-b: that root only; it reads and writes files, it loads nothing)
depmod -b "$work/root" "$rel"
[ -f "$mdir/modules.dep" ] || { echo "debian-kernel: no modules.dep for $pkg" >&2; exit 1; }

# name -> path (relative to $mdir); '-' and '_' are one character to modprobe
declare -A path=() deps=() done_=()
while IFS=: read -r m d; do
	n=${m##*/}; n=${n%%.ko*}; n=${n//-/_}
	path[$n]=$m deps[$n]=$d
done <"$mdir/modules.dep"
builtin=$(sed 's|.*/||; s|\.ko$||; s|-|_|g' "$mdir/modules.builtin")
# softdep pre: what a module asks for at run time (libcrc32c: crc32c), by
# module name or by alias; the guest has no modprobe to answer the request
declare -A pre=() alias=()
while read -r _ n w rest; do
	[ "$w" = pre: ] && pre[${n//-/_}]=${rest%%post:*}
done < <(grep '^softdep ' "$mdir/modules.softdep" 2>/dev/null || true)
while read -r _ a n; do alias[$a]="${alias[$a]:-} ${n//-/_}"; done < <(grep '^alias [^ ]* [^ ]*$' "$mdir/modules.alias")
order=()
visit() { # load order: every dependency before its user
	local n=$1 d dn
	[ -n "${path[$n]:-}" ] || return 0  # built in
	[ -n "${done_[$n]:-}" ] && return 0
	done_[$n]=1
	for d in ${pre[$n]:-}; do
		d=${d//-/_}
		if [ -n "${path[$d]:-}" ]; then visit "$d"; else for dn in ${alias[$d]:-}; do visit "$dn"; done; fi
	done
	for d in ${deps[$n]}; do dn=${d##*/}; dn=${dn%%.ko*}; visit "${dn//-/_}"; done
	order+=("$n")
}
skipped=""
while IFS= read -r l; do
	l=${l%%#*}; l=${l//[[:space:]]/}; [ -n "$l" ] || continue
	n=${l//-/_}
	if [ -n "${path[$n]:-}" ]; then visit "$n"
	elif grep -qx "$n" <<<"$builtin"; then :
	else skipped="$skipped $n"
	fi
done <"$here/debian-modules"

img=$work/img
mkdir -p "$img/lib/modules/vxgbp"
for n in "${order[@]}"; do
	src=$mdir/${path[$n]} dst=$img/lib/modules/vxgbp/$n.ko
	case "$src" in
	*.ko.xz) xz -dc "$src" >"$dst" ;;
	*.ko.zst) zstd -qdc "$src" >"$dst" ;;
	*.ko.gz) gzip -dc "$src" >"$dst" ;;
	*) cp "$src" "$dst" ;;
	esac
	echo "$n.ko" >>"$img/lib/modules/vxgbp/load"
done
echo "$pkg $ver $rel" >"$img/lib/modules/vxgbp/kernel"
mkdir -p "$work/out"
(cd "$img" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet --owner=0:0 --reproducible) \
	>"$work/out/modules.cpio"
cp "$work/root/boot/vmlinuz-$rel" "$work/out/vmlinuz"
cp "$work/root/boot/config-$rel" "$work/out/config"
echo "$pkg $ver" >"$work/out/version"
echo "$rel" >"$work/out/release"
echo "${skipped# }" >"$work/out/skipped"
t2=$(date +%s)
echo "download $((t1 - t0)) unpack $((t2 - t1))" >"$work/out/fetch-seconds"
touch "$work/out/done"
rm -rf "$dir" "$cache/${pkg}_${ver}"-*  # and the archives of older module lists
mv "$work/out" "$dir"
echo "debian-kernel: $pkg $ver ($rel): ${#order[@]} modules, not shipped:${skipped:- none}; download $((t1 - t0)) s, unpack $((t2 - t1)) s" >&2
echo "$dir"
