#!/bin/bash
# mkinitramfs.sh - build the guests' initramfs from the host's own binaries.
#
# usage: mkinitramfs.sh OUT.cpio [-x LISTFILE]... [-a PROGRAM]... [-f SRC:DEST]...
#   -x LISTFILE  extra programs to copy, one per line ('#' comments); each
#                is copied with the shared libraries ldd reports
#   -a PROGRAM   one extra program (path or name on $PATH)
#   -f SRC:DEST  one extra file or directory, copied to DEST in the image
# VXGBP_INITRAMFS_EXTRA (space-separated programs) is honoured too, so other
# scenarios can add binaries without touching this script.
#
# Contents: busybox (static) for the small tools, and the real dash, bash,
# iproute2 (ip, bridge, tc), tcpdump, nftables, iptables (legacy and nft,
# with the xtables/ extensions ldd cannot see), netlabelctl, setpriv, the
# guest init (qemu/guest/init) and every scenario (qemu/scenarios/).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { sed -n '2,16p' "$0" >&2; exit 2; }
out=$1; shift

progs=(dash bash ip bridge tc tcpdump nft xtables-legacy-multi xtables-nft-multi
       setpriv netlabelctl ss)
files=()
while [ $# -gt 0 ]; do
	case "$1" in
	-x) while IFS= read -r l; do l=${l%%#*}; l=$(echo $l); [ -n "$l" ] && progs+=("$l"); done <"$2"; shift 2 ;;
	-a) progs+=("$2"); shift 2 ;;
	-f) files+=("$2"); shift 2 ;;
	*) echo "mkinitramfs: unknown argument $1" >&2; exit 2 ;;
	esac
done
# shellcheck disable=SC2206
progs+=(${VXGBP_INITRAMFS_EXTRA:-})

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,etc,proc,sys,dev,tmp,run,var/run,root,scenarios,mnt}
chmod 755 "$root"  # mktemp -d gives 0700: non-root users could not reach /
chmod 1777 "$root/tmp"

declare -A seen=()
copy_file() { # copy $1 (following symlinks) to the same path in the image
	local src=$1 dst=${2:-$1}
	[ -n "${seen[$dst]:-}" ] && return 0
	seen[$dst]=1
	mkdir -p "$root$(dirname "$dst")"
	cp -L "$src" "$root$dst"
}
copy_libs() { # the shared libraries of $1
	local lib
	for lib in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*' | sort -u); do
		[ -e "$lib" ] && copy_file "$lib"
	done
}
copy_prog() {
	local p=$1 path
	if [[ $p == /* ]]; then path=$p; else path=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH command -v "$p" || true); fi
	[ -n "$path" ] && [ -x "$path" ] || { echo "mkinitramfs: missing program $p" >&2; return 1; }
	local dir=/usr/bin
	case "$path" in */sbin/*) dir=/usr/sbin ;; esac
	copy_file "$path" "$dir/$(basename "$path")"
	copy_libs "$path"
}

# busybox first: its applets in /bin, shadowed by the real tools (PATH
# puts /usr/sbin:/usr/bin first; scenarios run under dash, which has no
# builtin ip/ping)
bb=$(command -v busybox)
copy_file "$bb" /bin/busybox
for a in $("$bb" --list); do
	[ -e "$root/bin/$a" ] || ln -s busybox "$root/bin/$a"
done
for p in "${progs[@]}"; do copy_prog "$p"; done
ln -sf /usr/bin/dash "$root/bin/sh"
ln -sf /usr/bin/bash "$root/bin/bash"

# iptables: the multi binaries, their names, and the extensions
for n in iptables ip6tables iptables-save ip6tables-save iptables-restore ip6tables-restore; do
	ln -sf xtables-legacy-multi "$root/usr/sbin/$n"
	ln -sf xtables-legacy-multi "$root/usr/sbin/${n/tables/tables-legacy}"
	ln -sf xtables-nft-multi "$root/usr/sbin/${n/tables/tables-nft}"
done
for xt in /usr/lib/x86_64-linux-gnu/xtables /usr/lib/xtables; do
	[ -d "$xt" ] || continue
	for so in "$xt"/*.so; do copy_file "$so"; copy_libs "$so"; done
done
# the dynamic loader under both names
for ld in /lib64/ld-linux-x86-64.so.2 /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2; do
	[ -e "$ld" ] && copy_file "$ld"
done
[ -d /etc/iproute2 ] && cp -rL /etc/iproute2 "$root/etc/" 2>/dev/null || true
[ -d /usr/share/iproute2 ] && { mkdir -p "$root/usr/share"; cp -rL /usr/share/iproute2 "$root/usr/share/"; }
[ -f /etc/ethertypes ] && cp /etc/ethertypes "$root/etc/"
[ -f /etc/protocols ] && cp /etc/protocols "$root/etc/"
[ -f /etc/services ] && cp /etc/services "$root/etc/"

cat >"$root/etc/passwd" <<'PW'
root:x:0:0:root:/root:/bin/sh
u101:x:101:101:uid 101 of the seed example:/tmp:/bin/sh
u102:x:102:102:another user:/tmp:/bin/sh
tcpdump:x:103:103:tcpdump:/tmp:/bin/false
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
PW
cat >"$root/etc/group" <<'GR'
root:x:0:
u101:x:101:
u102:x:102:
tcpdump:x:103:
nogroup:x:65534:
GR
echo "hosts: files" >"$root/etc/nsswitch.conf"
printf '127.0.0.1 localhost\n::1 localhost\n' >"$root/etc/hosts"

install -m 755 "$here/guest/init" "$root/init"
cp "$here"/guest/*.sh "$root/scenarios/" 2>/dev/null || true
cp -r "$here"/scenarios/. "$root/scenarios/"
chmod -R a+rX "$root/scenarios"
for f in ${files[@]+"${files[@]}"}; do
	src=${f%%:*}; dst=${f#*:}
	mkdir -p "$root$(dirname "$dst")"
	cp -rL "$src" "$root$dst"
done

# uncompressed: inflating gzip under TCG costs seconds of every boot
(cd "$root" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet --owner=0:0 --reproducible) \
	>"$out.tmp.$$"
mv "$out.tmp.$$" "$out"  # atomic: parallel runs may build the same image
echo "mkinitramfs: $out ($(stat -c %s "$out") bytes)" >&2
