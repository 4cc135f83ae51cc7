#!/bin/sh
# The ABI check must fail when it should: build a small library (libt.so.1:
# a struct callers allocate, an enum with a VXGBP_R__COUNT counter, three
# functions in version node T_1.0, an opaque struct defined in a private
# header), record its baseline with abi.sh dump,
# then check modified builds of it with abi.sh check and libvxgbp's own
# suppressions.  Additions pass; removals, layout and signature changes and
# additions to a released node fail, unless the soname moved.
# Usage: selftest.sh TESTS_ABI_DIR C_COMPILER
set -eu
here=$1 cc=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/base"

cat > "$tmp/t.h" <<'C'
struct t_pkt {                 /* callers allocate it */
	int a;
	int b;
#ifdef GROW
	int c;
#endif
};
enum t_rule {
	T_R_A,
#ifdef ENUM_MIDDLE
	T_R_NEW,
#endif
	T_R_B,
#ifdef ENUM_APPEND
	T_R_C,
#endif
	VXGBP_R__COUNT
};
int t_parse(struct t_pkt *p);
struct t_ctx;                  /* opaque: t_ctx_size() bytes */
unsigned long t_ctx_size(void);
#ifdef PARAM
int t_rule_name(long r);
#else
int t_rule_name(enum t_rule r);
#endif
#ifndef REMOVE
int t_gone(void);
#endif
#if defined(ADD_NEW_NODE) || defined(ADD_OLD_NODE)
int t_added(void);
#endif
C
cat > "$tmp/t_private.h" <<'C'
struct t_ctx {
	long a;
#ifdef OPAQUE_GROWS
	long b;
#endif
};
int t_ctx_fill(struct t_ctx *c);
C
cat > "$tmp/t.c" <<'C'
#include "t.h"
#include "t_private.h"
unsigned long t_ctx_size(void) { return sizeof(struct t_ctx); }
int t_ctx_fill(struct t_ctx *c) { c->a = 1; return 0; }
struct t_private { long x;
#ifdef PRIVATE
	long y;
#endif
};
int t_internal(struct t_private *q);
int t_internal(struct t_private *q) { return (int)q->x; }
int t_parse(struct t_pkt *p) { return p->a + p->b; }
#ifdef PARAM
int t_rule_name(long r) { return (int)r; }
#else
int t_rule_name(enum t_rule r) { return (int)r; }
#endif
#ifndef REMOVE
int t_gone(void) { return 1; }
#endif
#if defined(ADD_NEW_NODE) || defined(ADD_OLD_NODE)
int t_added(void) { return 2; }
#endif
C

# build NAME SONAME MAP CFLAGS...: $tmp/NAME/libt.so and its header dir
build() {
	b_name=$1 b_so=$2 b_map=$3
	shift 3
	mkdir -p "$tmp/$b_name/include"
	printf '%s\n' "$b_map" > "$tmp/$b_name/t.map"
	"$cc" -E -P "$@" -x c "$tmp/t.h" > "$tmp/$b_name/include/t.h"
	"$cc" -g -O2 -fPIC -shared "$@" -I"$tmp" "$tmp/t.c" -o "$tmp/$b_name/libt.so" \
		-Wl,-soname,"$b_so" -Wl,--version-script="$tmp/$b_name/t.map"
}
S='t_parse; t_rule_name; t_ctx_size; t_ctx_fill;'
M10="T_1.0 { global: $S t_gone; local: *; };"
M10r="T_1.0 { global: $S local: *; };"

build base libt.so.1 "$M10"
sh "$here/abi.sh" dump "$tmp/base/libt.so" "$tmp/base/include" "$tmp/base/libt.so.1.abi"
grep -q "soname='libt.so.1'" "$tmp/base/libt.so.1.abi" || { echo "dump: no soname"; exit 1; }

fail=0 n=0
# expect pass|fail NAME SONAME MAP CFLAGS...
expect() {
	want=$1
	shift
	n=$((n + 1))
	build "$@"
	rc=0
	sh "$here/abi.sh" check "$tmp/base" "$tmp/$1/libt.so" "$tmp/$1/include" \
		"$here/libvxgbp.suppr" > "$tmp/$1.out" 2>&1 || rc=$?
	case $want:$rc in
	pass:0|fail:1) echo "ok   $want  $1: $(grep "^abi:" "$tmp/$1.out" | tail -1)";;
	*) echo "FAIL $1: expected $want, abi.sh check exited $rc:"
	   sed 's/^/    /' "$tmp/$1.out"; fail=1;;
	esac
}
expect pass same libt.so.1 "$M10"
expect pass add-new-node libt.so.1 "$M10 T_1.1 { global: t_added; } T_1.0;" -DADD_NEW_NODE
expect pass enum-append libt.so.1 "$M10" -DENUM_APPEND
expect pass private-type libt.so.1 "$M10" -DPRIVATE
expect pass opaque-grows libt.so.1 "$M10" -DOPAQUE_GROWS
expect fail add-old-node libt.so.1 "T_1.0 { global: $S t_gone; t_added; local: *; };" -DADD_OLD_NODE
expect fail remove libt.so.1 "$M10r" -DREMOVE
expect fail struct-grows libt.so.1 "$M10" -DGROW
expect fail param-type libt.so.1 "$M10" -DPARAM
expect fail enum-middle libt.so.1 "$M10" -DENUM_MIDDLE
expect fail node-moved libt.so.1 "T_1.0 { global: $S local: *; }; T_1.1 { global: t_gone; } T_1.0;"
expect pass remove-new-soname libt.so.2 "$M10r" -DREMOVE
expect pass grow-new-soname libt.so.2 "$M10" -DGROW

# no debug information: skipped (77), never a pass
mkdir -p "$tmp/nodebug"
"$cc" -O2 -fPIC -shared -I"$tmp" "$tmp/t.c" -o "$tmp/nodebug/libt.so" -Wl,-soname,libt.so.1 \
	-Wl,--version-script="$tmp/base/t.map"
rc=0
sh "$here/abi.sh" check "$tmp/base" "$tmp/nodebug/libt.so" "$tmp/base/include" > /dev/null 2>&1 || rc=$?
[ "$rc" -eq 77 ] && echo "ok   skip  no-debug-info" || { echo "FAIL no-debug-info: exit $rc, want 77"; fail=1; }
# no baseline at all: a failure
mkdir -p "$tmp/empty"
rc=0
sh "$here/abi.sh" check "$tmp/empty" "$tmp/base/libt.so" "$tmp/base/include" > /dev/null 2>&1 || rc=$?
[ "$rc" -eq 1 ] && echo "ok   fail  no-baseline" || { echo "FAIL no-baseline: exit $rc, want 1"; fail=1; }

[ "$fail" -eq 0 ] || exit 1
echo "abi self-test: $n cases + 2 as expected"
