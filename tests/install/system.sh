#!/bin/sh
# A system install: configure with -DCMAKE_INSTALL_PREFIX=/usr (GNUInstallDirs
# then gives Debian's multiarch libdir, lib/x86_64-linux-gnu), install the
# libvxgbp component into a DESTDIR, and check libvxgbp.pc:
#  - through PKG_CONFIG_SYSROOT_DIR (how a cross or staged build reads it):
#    -I<destdir>/usr/include -L<destdir>/usr/<libdir> -lvxgbp, and a consumer
#    built with those flags runs;
#  - as it reads once the files are in /usr (its ${pcfiledir} is then
#    /usr/<libdir>/pkgconfig): prefix /usr, libdir /usr/<libdir>,
#    includedir /usr/include - not /usr/lib/include.
# Usage: system.sh SOURCE_DIR C_COMPILER
set -eu
src=$1 ccomp=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake -S "$src" -B "$tmp/build" -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_C_COMPILER="$ccomp" \
	-DCMAKE_BUILD_TYPE=Release -DVXGBP_BUILD_TESTS=OFF -DVXGBP_BUILD_DISSECTOR=OFF \
	> "$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/build" --target vxgbp vxgbp_shared > "$tmp/build.log" 2>&1 ||
	{ cat "$tmp/build.log"; exit 1; }
DESTDIR="$tmp/root" cmake --install "$tmp/build" --component libvxgbp > /dev/null
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$tmp/build/CMakeCache.txt")
ma=$(cc -print-multiarch 2>/dev/null || true)
if [ -n "$ma" ] && [ -f /etc/debian_version ]; then
	[ "$libdir" = "lib/$ma" ] || { echo "GNUInstallDirs gave libdir '$libdir', not lib/$ma"; exit 1; }
fi
root="$tmp/root"
pcdir="$root/usr/$libdir/pkgconfig"
[ -f "$pcdir/libvxgbp.pc" ] || { echo "no $pcdir/libvxgbp.pc"; find "$root"; exit 1; }
for f in "usr/$libdir/libvxgbp.so" "usr/$libdir/libvxgbp.a" usr/include/vxgbp/vxgbp.h; do
	[ -e "$root/$f" ] || { echo "not installed: /$f"; exit 1; }
done

# norm FLAGS: the flags with -I/-L paths made canonical
norm() {
	for f; do
		case $f in
		-I*) printf '%s ' "-I$(realpath -m "${f#-I}")";;
		-L*) printf '%s ' "-L$(realpath -m "${f#-L}")";;
		*) printf '%s ' "$f";;
		esac
	done
}
rroot=$(realpath "$root")

# 1. staged: sysroot + the DESTDIR's pkgconfig dir only
flags=$(PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_LIBDIR="$pcdir" PKG_CONFIG_PATH= \
	pkg-config --cflags --libs libvxgbp)
got=$(norm $flags)
want="-I$rroot/usr/include -L$rroot/usr/$libdir -lvxgbp "
[ "$got" = "$want" ] || { printf 'sysroot: got  %s\n         want %s\n(raw: %s)\n' "$got" "$want" "$flags"; exit 1; }
cat > "$tmp/use.c" <<'C'
#include <stdio.h>
#include <vxgbp/vxgbp.h>
int main(void)
{
	struct vxgbp_hdr h;

	if (vxgbp_hdr_init(&h, 100, VXGBP_F_G | VXGBP_F_D, 0x200) != 0)
		return 1;
	printf("%s %#x\n", vxgbp_version(), vxgbp_mark_from_hdr(&h));
	return 0;
}
C
cc -std=c11 -Wall -Werror "$tmp/use.c" $flags -o "$tmp/use"
got=$(LD_LIBRARY_PATH="$root/usr/$libdir" "$tmp/use")
ver=$(PKG_CONFIG_LIBDIR="$pcdir" pkg-config --modversion libvxgbp)
[ "$got" = "$ver 0x400200" ] || { echo "staged consumer: got '$got'"; exit 1; }
LD_LIBRARY_PATH="$root/usr/$libdir" ldd "$tmp/use" | grep -q "$root/usr/$libdir/libvxgbp.so" ||
	{ echo "staged consumer not linked to the staged library"; exit 1; }

# 2. in place: the variables as they read from /usr/<libdir>/pkgconfig
var() {
	v=$(PKG_CONFIG_LIBDIR="$pcdir" PKG_CONFIG_PATH= pkg-config \
		--define-variable=pcfiledir="/usr/$libdir/pkgconfig" --variable="$1" libvxgbp)
	realpath -m "$v"
}
for pair in prefix=/usr libdir="/usr/$libdir" includedir=/usr/include; do
	got=$(var "${pair%%=*}")
	[ "$got" = "${pair#*=}" ] || { echo "installed in /usr: ${pair%%=*} is '$got', want '${pair#*=}'"; exit 1; }
done
echo "system install: libdir $libdir, $(sed -n 's/^prefix=//p' "$pcdir/libvxgbp.pc"); sysroot flags right; in /usr: prefix /usr, includedir /usr/include"
