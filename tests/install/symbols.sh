#!/bin/sh
# The public functions of libvxgbp, three ways, must be one set:
#   1. the extern functions vxgbp.h declares (as GCC reads the header:
#      -aux-info lists every prototype; static inline helpers are not
#      exported and are left out),
#   2. the names libvxgbp.map exports, each under its version node,
#   3. the dynamic symbols libvxgbp.so defines (nm -D --defined-only), each
#      with the version objdump -T shows.
# Also: the library exports functions only (no data), every node is
# VXGBP_<soname major>.<minor> with minor <= VXGBP_VERSION_MINOR, and the
# soname is libvxgbp.so.<VXGBP_VERSION_MAJOR>.
# Usage: symbols.sh HEADER MAP LIBVXGBP_SO
set -eu
hdr=$1 map=$2 so=$3
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# show NAME FILE: the lines of FILE, indented, after a title
show() { [ -s "$2" ] && { bad "$1"; sed 's/^/    /' "$2"; }; return 0; }

# 1. the header, as the compiler sees it
inc=$(dirname "$(dirname "$hdr")")
# (-aux-info is GCC's; with another CC, gcc is tried)
"$cc" -aux-info "$tmp/aux" -fsyntax-only -I"$inc" -x c "$hdr" 2> /dev/null ||
	gcc -aux-info "$tmp/aux" -fsyntax-only -I"$inc" -x c "$hdr" ||
	{ echo "FAIL: neither '$cc -aux-info' nor 'gcc -aux-info' reads $hdr"; exit 1; }
grep -F "$hdr:" "$tmp/aux" | grep ':NC \*/ extern ' |
	sed -E 's/^.*[ *](vxgbp_[A-Za-z0-9_]+) \(.*$/\1/' | sort > "$tmp/header"
[ -s "$tmp/header" ] || { echo "FAIL: no extern function found in $hdr"; exit 1; }
grep -F "$hdr:" "$tmp/aux" | grep ':NC \*/ extern ' | grep -Ev '[ *]vxgbp_[A-Za-z0-9_]* \(' \
	> "$tmp/notours" || true
show "declared in vxgbp.h without the vxgbp_ prefix:" "$tmp/notours"

# 2. the map: "node name" pairs, comments dropped
# (the map's shape: NODE { global: a; b; local: *; } [PARENT] ;)
perl -0777 -ne '
	s{/\*.*?\*/}{}gs;
	while (/([A-Za-z0-9_.]+)\s*\{(.*?)\}\s*([A-Za-z0-9_.]*)\s*;/gs) {
		my ($node, $body) = ($1, $2);
		my $scope = "";
		$body =~ s/\b(global|local)\s*:/ $1: /g;
		for my $t (split /[\s;]+/, $body) {
			next if $t eq "";
			if ($t =~ /^(global|local):$/) { $scope = $1; next; }
			if ($scope eq "global") { print "$node $t\n"; }
			elsif ($t ne "*") { print "LOCAL $t\n"; }
		}
		print "NODE $node\n";
	}' "$map" > "$tmp/mapraw"
grep '^NODE ' "$tmp/mapraw" | awk '{print $2}' > "$tmp/nodes"
grep -v '^NODE \|^LOCAL ' "$tmp/mapraw" | sort -k2 > "$tmp/map-pairs"
grep '^LOCAL ' "$tmp/mapraw" > "$tmp/locals" || true
show "names in a local: list (only '*' belongs there):" "$tmp/locals"
[ -s "$tmp/map-pairs" ] || { echo "FAIL: no exported name found in $map"; exit 1; }
awk '{print $2}' "$tmp/map-pairs" | sort > "$tmp/map"
awk '{print $2}' "$tmp/map-pairs" | sort | uniq -d > "$tmp/dups"
show "listed more than once in libvxgbp.map:" "$tmp/dups"
grep -E '[*?[]' "$tmp/map" > "$tmp/wild" || true
show "wildcards in the map's global: lists (name every symbol):" "$tmp/wild"

# 3. the library
nm -D --defined-only "$so" | awk '{print $3}' | sed 's/@.*//' | sort > "$tmp/nm-all"
objdump -T "$so" | awk '$2 == "g" && $4 != "*UND*" && $4 != "*ABS*" { print $(NF-1), $NF, $3 }' \
	| sort -k2 > "$tmp/dyn"
objdump -T "$so" | awk '$4 == "*ABS*" { print $NF }' | sort > "$tmp/abs"
awk '$3 != "DF" { print $2 " (" $3 ")" }' "$tmp/dyn" > "$tmp/notfunc"
show "exported symbols that are not functions:" "$tmp/notfunc"
awk '{print $2}' "$tmp/dyn" | sort > "$tmp/lib"
sort "$tmp/nodes" > "$tmp/nodes-sorted"
comm -23 "$tmp/nm-all" "$tmp/lib" | comm -23 - "$tmp/nodes-sorted" > "$tmp/stray"
show "defined dynamic symbols outside the map's nodes:" "$tmp/stray"

comm -23 "$tmp/header" "$tmp/map" > "$tmp/x"
show "declared in vxgbp.h, missing from libvxgbp.map:" "$tmp/x"
comm -13 "$tmp/header" "$tmp/map" > "$tmp/x"
show "in libvxgbp.map, not declared in vxgbp.h:" "$tmp/x"
comm -23 "$tmp/map" "$tmp/lib" > "$tmp/x"
show "in libvxgbp.map, not defined in libvxgbp.so (a definition is missing):" "$tmp/x"
comm -13 "$tmp/map" "$tmp/lib" > "$tmp/x"
show "exported by libvxgbp.so, not in libvxgbp.map:" "$tmp/x"
awk '{print $2, $1}' "$tmp/map-pairs" | sort > "$tmp/want-ver"
awk '{v = $1; gsub(/[()]/, "", v); print $2, v}' "$tmp/dyn" | sort > "$tmp/got-ver"
join "$tmp/want-ver" "$tmp/got-ver" | awk '$2 != $3 { print $1 ": map says " $2 ", library has " $3 }' > "$tmp/x"
show "version node differs from the map:" "$tmp/x"
awk '$1 ~ /^\(/ { print $2 " " $1 }' "$tmp/dyn" > "$tmp/x"
show "exported as a hidden (non-default) version:" "$tmp/x"

# versions: soname, node names
major=$(printf '#include <vxgbp/vxgbp.h>\nVXGBP_VERSION_MAJOR VXGBP_VERSION_MINOR\n' |
	"$cc" -E -P -I"$inc" -x c - | tail -1)
minor=${major#* }; major=${major% *}
soname=$(objdump -p "$so" | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = "libvxgbp.so.$major" ] || bad "soname is '$soname', VXGBP_VERSION_MAJOR is $major"
while read -r n; do
	case $n in
	VXGBP_"$major".*) m=${n#VXGBP_"$major".}
		case $m in ''|*[!0-9]*) bad "version node $n: not VXGBP_$major.<minor>";;
		*) [ "$m" -le "$minor" ] || bad "version node $n is newer than VXGBP_VERSION_MINOR $minor";;
		esac;;
	*) bad "version node $n: not VXGBP_$major.<minor> (soname libvxgbp.so.$major)";;
	esac
done < "$tmp/nodes"
cmp -s "$tmp/abs" "$tmp/nodes-sorted" ||
	bad "version definitions in the library ($(tr '\n' ' ' < "$tmp/abs")) are not the map's nodes ($(tr '\n' ' ' < "$tmp/nodes-sorted"))"

[ "$fail" -eq 0 ] || exit 1
echo "symbols: $(wc -l < "$tmp/header") functions declared in vxgbp.h = libvxgbp.map = exported by $(basename "$so") ($soname), nodes: $(tr '\n' ' ' < "$tmp/nodes")"
