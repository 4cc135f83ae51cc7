#!/bin/sh
# docs/api.md cannot rot: every fenced C block after a
#   <!-- example: NAME ... -->   line is compiled against the installed
#                                library through pkg-config, linked, run, and
#                                its output compared with the ```text block
#                                after <!-- output: NAME -->;
#   <!-- compile: NAME ... -->   line is compiled (-c) against the installed
#                                header.
# Usage: api-example.sh DOC BUILD_DIR
set -eu
doc=$1 build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" --component libvxgbp > /dev/null
pc=$(find "$tmp/prefix" -name libvxgbp.pc -path '*/pkgconfig/*')
export PKG_CONFIG_PATH="$(dirname "$pc")"
libdir=$(dirname "$(dirname "$pc")")

# extract KIND NAME: the fenced block after <!-- KIND: NAME
extract() {
	awk -v tag="<!-- $1: $2" '
		index($0, tag) == 1 { want = 1; next }
		want && /^```/ && !in_block { in_block = 1; next }
		in_block && /^```/ { exit }
		in_block { print }
	' "$doc"
}
cflags="-std=c11 -Wall -Wextra -Wpedantic -Werror"
n=0
for name in $(sed -n 's/^<!-- compile: \([^ ]*\).*/\1/p' "$doc"); do
	extract compile "$name" > "$tmp/$name"
	[ -s "$tmp/$name" ] || { echo "$doc: no code after <!-- compile: $name"; exit 1; }
	cc $cflags $(pkg-config --cflags libvxgbp) -c "$tmp/$name" -o "$tmp/$name.o" ||
		{ echo "$doc: $name does not compile"; exit 1; }
	n=$((n + 1))
done
for name in $(sed -n 's/^<!-- example: \([^ ]*\).*/\1/p' "$doc"); do
	extract example "$name" > "$tmp/$name"
	extract output "$name" > "$tmp/$name.want"
	[ -s "$tmp/$name" ] || { echo "$doc: no code after <!-- example: $name"; exit 1; }
	[ -s "$tmp/$name.want" ] || { echo "$doc: no <!-- output: $name --> block"; exit 1; }
	cc $cflags "$tmp/$name" $(pkg-config --cflags --libs libvxgbp) \
		-Wl,-rpath,"$libdir" -o "$tmp/$name.bin" ||
		{ echo "$doc: $name does not compile or link"; exit 1; }
	ldd "$tmp/$name.bin" | grep -q "$libdir/libvxgbp.so" ||
		{ echo "$name: not linked to the installed libvxgbp.so"; exit 1; }
	"$tmp/$name.bin" > "$tmp/$name.got" || { echo "$name: exit $?"; cat "$tmp/$name.got"; exit 1; }
	diff -u "$tmp/$name.want" "$tmp/$name.got" ||
		{ echo "$doc: $name prints something else than the doc shows"; exit 1; }
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "$doc: no example found"; exit 1; }
echo "$doc: $n example(s) compiled against the installed library; output as shown"
