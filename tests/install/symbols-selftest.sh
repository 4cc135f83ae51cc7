#!/bin/sh
# symbols.sh must fail when it should: a small fake libvxgbp (its own
# vxgbp/vxgbp.h, libvxgbp.map and libvxgbp.so.1) that agrees passes; each way
# of breaking the agreement fails.
# Usage: symbols-selftest.sh TESTS_INSTALL_DIR C_COMPILER
set -eu
here=$1 cc=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check NAME pass|MESSAGE MAJOR MINOR SONAME MAP CFLAGS...: symbols.sh passes,
# or fails saying MESSAGE.
# The header declares vxgbp_a, vxgbp_b (and vxgbp_c with -DDECL_C), a static
# inline vxgbp_inline; the library defines vxgbp_a, vxgbp_b (and vxgbp_c with
# -DDEF_C, a variable vxgbp_data with -DDATA).
fail=0 n=0
check() {
	c_name=$1 c_want=$2 c_major=$3 c_minor=$4 c_so=$5 c_map=$6
	shift 6
	d="$tmp/$c_name"
	mkdir -p "$d/include/vxgbp"
	case " $* " in *" -DDECL_C "*) decl="#define DECL_C 1";; *) decl="";; esac
	cat > "$d/include/vxgbp/vxgbp.h" <<C
$decl
#define VXGBP_VERSION_MAJOR $c_major
#define VXGBP_VERSION_MINOR $c_minor
int vxgbp_a(int x);
const char *vxgbp_b(void);
#ifdef DECL_C
int vxgbp_c(void);
#endif
static inline int vxgbp_inline(int x) { return x + 1; }
C
	cat > "$d/lib.c" <<'C'
#include <vxgbp/vxgbp.h>
int vxgbp_a(int x) { return vxgbp_inline(x); }
const char *vxgbp_b(void) { return "b"; }
int vxgbp_internal(void);
int vxgbp_internal(void) { return 0; }
#ifdef DEF_C
int vxgbp_c(void);
int vxgbp_c(void) { return 3; }
#endif
#ifdef DATA
int vxgbp_data = 1;
#endif
C
	printf '%s\n' "$c_map" > "$d/libvxgbp.map"
	"$cc" -fPIC -shared -Wl,--undefined-version -I"$d/include" "$@" "$d/lib.c" \
		-o "$d/libvxgbp.so" -Wl,-soname,"$c_so" -Wl,--version-script="$d/libvxgbp.map" 2> /dev/null ||
	"$cc" -fPIC -shared -I"$d/include" "$@" "$d/lib.c" \
		-o "$d/libvxgbp.so" -Wl,-soname,"$c_so" -Wl,--version-script="$d/libvxgbp.map"
	rc=0
	CC=$cc sh "$here/symbols.sh" "$d/include/vxgbp/vxgbp.h" "$d/libvxgbp.map" "$d/libvxgbp.so" \
		> "$d/out" 2>&1 || rc=$?
	n=$((n + 1))
	ok=
	case $c_want:$rc in
	pass:0) ok=1;;
	pass:*) ;;
	*:1) grep -qF "FAIL: $c_want" "$d/out" && ok=1;;
	esac
	if [ -n "$ok" ]; then
		echo "ok   $c_name: $(grep -m1 . "$d/out")"
	else
		echo "FAIL $c_name: expected ${c_want#fail}, symbols.sh exited $rc:"
		sed 's/^/    /' "$d/out"
		fail=1
	fi
}
G='VXGBP_1.0 { global: vxgbp_a; vxgbp_b; local: *; };'
check good pass 1 0 libvxgbp.so.1 "$G"
check new-node pass 1 1 libvxgbp.so.1 \
	"$G VXGBP_1.1 { global: vxgbp_c; } VXGBP_1.0;" -DDECL_C -DDEF_C
check declared-not-mapped "declared in vxgbp.h, missing from libvxgbp.map" 1 0 libvxgbp.so.1 "$G" -DDECL_C -DDEF_C
check mapped-not-declared "in libvxgbp.map, not declared in vxgbp.h" 1 0 libvxgbp.so.1 \
	'VXGBP_1.0 { global: vxgbp_a; vxgbp_b; vxgbp_c; local: *; };' -DDEF_C
check not-defined "in libvxgbp.map, not defined in libvxgbp.so" 1 0 libvxgbp.so.1 \
	'VXGBP_1.0 { global: vxgbp_a; vxgbp_b; vxgbp_c; local: *; };' -DDECL_C
check wildcard "wildcards in the map" 1 0 libvxgbp.so.1 'VXGBP_1.0 { global: vxgbp_*; local: *; };'
check data "exported symbols that are not functions" 1 0 libvxgbp.so.1 'VXGBP_1.0 { global: vxgbp_a; vxgbp_b; vxgbp_data; local: *; };' -DDATA
check node-too-new "version node VXGBP_1.1 is newer than VXGBP_VERSION_MINOR 0" 1 0 libvxgbp.so.1 \
	"$G VXGBP_1.1 { global: vxgbp_c; } VXGBP_1.0;" -DDECL_C -DDEF_C
check node-other-major "version node VXGBP_0: not VXGBP_1.<minor>" 1 0 libvxgbp.so.1 'VXGBP_0 { global: vxgbp_a; vxgbp_b; local: *; };'
check soname "soname is 'libvxgbp.so.2'" 1 0 libvxgbp.so.2 "$G"
check version-major "soname is 'libvxgbp.so.1', VXGBP_VERSION_MAJOR is 2" 2 0 libvxgbp.so.1 "$G"
[ "$fail" -eq 0 ] || exit 1
echo "symbols self-test: $n cases as expected"
