#!/bin/sh
# cmake --install into a temporary prefix, then build a small consumer of the
# installed library through pkg-config, against the shared and the static
# library, and check that the shared library exports exactly vxgbp_*.
# Usage: install.sh BUILD_DIR
set -eu
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > /dev/null
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
cat > "$tmp/use.c" <<'C'
#include <stdio.h>
#include <vxgbp/vxgbp.h>
int main(void)
{
	static const uint8_t b[8] = { 0x88, 0x40, 0x02, 0x00, 0x00, 0x00, 0x64, 0x00 };
	struct vxgbp_hdr h;
	uint8_t back[8];

	if (vxgbp_hdr_decode(&h, b, sizeof(b)) != 8 || vxgbp_hdr_encode(&h, back, 8) != 8)
		return 1;
	printf("%u %u %#x %s\n", h.vni, h.group, vxgbp_mark_from_hdr(&h), vxgbp_strerror(-1));
	return 0;
}
C
want="100 512 0x400200 truncated: the capture ends before the header does"
cc -std=c11 -Wall -Werror "$tmp/use.c" $(pkg-config --cflags --libs libvxgbp) \
	-Wl,-rpath,"$tmp/prefix/lib" -o "$tmp/use-shared"
got=$("$tmp/use-shared")
[ "$got" = "$want" ] || { echo "shared: got '$got'"; exit 1; }
ldd "$tmp/use-shared" | grep -q "$tmp/prefix/lib/libvxgbp.so" || { echo "not linked to the installed .so"; exit 1; }
cc -std=c11 -Wall -Werror "$tmp/use.c" $(pkg-config --cflags libvxgbp) "$tmp/prefix/lib/libvxgbp.a" -o "$tmp/use-static"
got=$("$tmp/use-static")
[ "$got" = "$want" ] || { echo "static: got '$got'"; exit 1; }
other=$(nm -D --defined-only "$tmp/prefix/lib/libvxgbp.so" | awk '{print $3}' | grep -v '^vxgbp_' | grep -v '^VXGBP_0$' || true)
[ -z "$other" ] || { echo "exported beyond vxgbp_*: $other"; exit 1; }
n=$(nm -D --defined-only "$tmp/prefix/lib/libvxgbp.so" | grep -c ' vxgbp_')
for f in bin/gbpdump bin/gbpgen include/vxgbp/vxgbp.h share/man/man1/gbpdump.1; do
	[ -e "$tmp/prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done
echo "installed; consumer built shared and static; $n symbols exported, all vxgbp_*"
