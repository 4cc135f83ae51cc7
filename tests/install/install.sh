#!/bin/sh
# cmake --install into a temporary prefix, then build a small consumer of the
# installed library through pkg-config, against the shared and the static
# library; check that the versions agree (pkg-config --modversion, the
# header's VXGBP_VERSION*, vxgbp_version() of the loaded library, the
# soname); then move the whole installed tree elsewhere and build and run
# the consumer again from the moved tree (libvxgbp.pc finds its prefix
# from its own place).
# Usage: install.sh BUILD_DIR
set -eu
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > /dev/null
pc=$(cd "$tmp/prefix" && find . -name libvxgbp.pc -path '*/pkgconfig/*')
[ -n "$pc" ] || { echo "libvxgbp.pc not installed"; exit 1; }
libdir=$(dirname "$(dirname "${pc#./}")")   # lib, or lib/<multiarch>
export PKG_CONFIG_PATH="$tmp/prefix/$libdir/pkgconfig"
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR || true

cat > "$tmp/use.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <vxgbp/vxgbp.h>
int main(void)
{
	static const uint8_t b[8] = { 0x88, 0x40, 0x02, 0x00, 0x00, 0x00, 0x64, 0x00 };
	struct vxgbp_hdr h;
	uint8_t back[8];
	char v[32];

	if (vxgbp_hdr_decode(&h, b, sizeof(b)) != 8 || vxgbp_hdr_encode(&h, back, 8) != 8)
		return 1;
	printf("%u %u %#x %s\n", h.vni, h.group, vxgbp_mark_from_hdr(&h), vxgbp_strerror(-1));
	/* the header's version, said three ways, and the library's */
	snprintf(v, sizeof(v), "%d.%d.%d", VXGBP_VERSION_MAJOR, VXGBP_VERSION_MINOR,
		 VXGBP_VERSION_PATCH);
	if (strcmp(v, VXGBP_VERSION) != 0 ||
	    VXGBP_VERSION_NUMBER != (VXGBP_VERSION_MAJOR << 16 | VXGBP_VERSION_MINOR << 8 |
				     VXGBP_VERSION_PATCH))
		return 2;
	printf("%s %s %d\n", VXGBP_VERSION, vxgbp_version(), VXGBP_VERSION_MAJOR);
	return 0;
}
C
modver=$(pkg-config --modversion libvxgbp)
major=${modver%%.*}
want="100 512 0x400200 truncated: the capture ends before the header does
$modver $modver $major"
cc -std=c11 -Wall -Werror "$tmp/use.c" $(pkg-config --cflags --libs libvxgbp) \
	-Wl,-rpath,"$tmp/prefix/$libdir" -o "$tmp/use-shared"
got=$("$tmp/use-shared") || { echo "shared: exit $?: '$got'"; exit 1; }
[ "$got" = "$want" ] || { printf 'shared: got\n%s\nwant\n%s\n' "$got" "$want"; exit 1; }
ldd "$tmp/use-shared" | grep -q "$tmp/prefix/$libdir/libvxgbp.so.$major " ||
	{ echo "not linked to the installed libvxgbp.so.$major"; ldd "$tmp/use-shared"; exit 1; }
soname=$(objdump -p "$tmp/prefix/$libdir/libvxgbp.so" | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = "libvxgbp.so.$major" ] || { echo "soname $soname, version $modver"; exit 1; }
[ -f "$tmp/prefix/$libdir/libvxgbp.so.$modver" ] || { echo "no libvxgbp.so.$modver"; exit 1; }
cc -std=c11 -Wall -Werror "$tmp/use.c" $(pkg-config --cflags libvxgbp) \
	"$tmp/prefix/$libdir/libvxgbp.a" -o "$tmp/use-static"
got=$("$tmp/use-static") || { echo "static: exit $?"; exit 1; }
[ "$got" = "$want" ] || { printf 'static: got\n%s\nwant\n%s\n' "$got" "$want"; exit 1; }
for f in bin/gbpdump bin/gbpgen include/vxgbp/vxgbp.h share/man/man1/gbpdump.1 \
	"$libdir/libvxgbp.a" "$libdir/libvxgbp.so"; do
	[ -e "$tmp/prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done

# Move the tree: pkg-config must follow, and nothing may point back.
mkdir -p "$tmp/elsewhere/deeper"
mv "$tmp/prefix" "$tmp/elsewhere/deeper/moved"
new="$tmp/elsewhere/deeper/moved"
export PKG_CONFIG_PATH="$new/$libdir/pkgconfig"
flags=$(pkg-config --cflags --libs libvxgbp)
set -- $flags
inc= lib= l=
for f; do
	case $f in
	-I*) inc=$(realpath -m "${f#-I}");;
	-L*) lib=$(realpath -m "${f#-L}");;
	-lvxgbp) l=yes;;
	*) echo "moved: unexpected flag $f in '$flags'"; exit 1;;
	esac
done
[ "$inc" = "$(realpath "$new/include")" ] && [ "$lib" = "$(realpath "$new/$libdir")" ] &&
	[ "$l" = yes ] || { echo "moved tree: pkg-config gives '$flags'"; exit 1; }
cc -std=c11 -Wall -Werror "$tmp/use.c" $flags -Wl,-rpath,"$new/$libdir" -o "$tmp/use-moved"
got=$("$tmp/use-moved") || { echo "moved: exit $?"; exit 1; }
[ "$got" = "$want" ] || { printf 'moved: got\n%s\nwant\n%s\n' "$got" "$want"; exit 1; }
ldd "$tmp/use-moved" | grep -q "$new/$libdir/libvxgbp.so.$major " ||
	{ echo "moved: not linked to the moved library"; exit 1; }
echo "installed ($libdir, $soname, version $modver); consumer built shared and static; moved tree works through pkg-config"
