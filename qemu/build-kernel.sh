#!/bin/bash
# build-kernel.sh - build the vxgbp test kernels (bzImage per series stage).
#
# Unpacks Debian's linux-source-6.12 once into a cache outside the repository
# (${VXGBP_CACHE:-/var/cache/vxgbp}), makes it a git repository with a single
# base commit (tag vxgbp-base), then builds tinyconfig + qemu/vxgbp.config
# (built-in drivers only, no modules) for the base tree and again after each
# patch of kernel-series/series is applied with `git am` - incrementally, in
# one object tree, through ccache.  kernel-series/series names the patches
# of both series (net/..., then net-next/...) relative to kernel-series/;
# $outdir/stage-patches maps each stage to its patch (qemu/fixes maps
# patches to fix ids).  Results are cached under
#   $VXGBP_CACHE/kernels/<key>/bzImage-NN-<name>
# where key = sha256(series files + config fragment + this script), so the
# kernels are rebuilt only when one of those changes.
#
# usage: build-kernel.sh            build (or reuse) and print the kernel dir
#        build-kernel.sh --print-dir  print the kernel dir, build nothing
#        build-kernel.sh --check      exit 0 if the kernels are cached
#        build-kernel.sh --tools      exit 0 if every tool and header the
#                                     build needs is here (scripts/deps/qemu.list)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cache=${VXGBP_CACHE:-/var/cache/vxgbp}
tarball=${VXGBP_LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
series_dir=$repo/kernel-series
fragment=$here/vxgbp.config
jobs=${VXGBP_JOBS:-$(nproc)}

series_files() {
	echo "$series_dir/series"
	[ -f "$series_dir/series" ] && sed -e 's/#.*//' -e '/^[[:space:]]*$/d' \
		"$series_dir/series" | sed "s|^|$series_dir/|"
	return 0
}

compute_key() {
	{
		for f in $(series_files) "$fragment" "$here/build-kernel.sh"; do
			[ -f "$f" ] || continue
			printf '%s\n' "${f##*/}"
			sha256sum <"$f"
		done
	} | sha256sum | cut -c1-16
}

# what Kbuild runs for tinyconfig + the fragment (kconfig: flex, bison;
# objtool: libelf; certs and sign-file: libssl; timeconst: bc) and what
# this script runs
check_tools() {
	local t h bad=""
	for t in make gcc ld flex bison bc perl cpio xz tar git ccache python3; do
		command -v "$t" >/dev/null || bad="$bad $t"
	done
	for h in gelf.h openssl/opensslv.h; do
		echo "#include <$h>" | gcc -E -x c - >/dev/null 2>&1 || bad="$bad <$h>"
	done
	[ -r "$tarball" ] || bad="$bad $tarball"
	[ -z "$bad" ] || { echo "build-kernel: missing:$bad (scripts/deps/qemu.list)" >&2; return 1; }
}

key=$(compute_key)
outdir=$cache/kernels/$key

case "${1:-}" in
--print-dir) echo "$outdir"; exit 0 ;;
--check) [ -f "$outdir/done" ]; exit $? ;;
--tools) check_tools; exit $? ;;
"") ;;
*) echo "usage: $0 [--print-dir|--check|--tools]" >&2; exit 2 ;;
esac

if [ -f "$outdir/done" ]; then
	echo "build-kernel: cached kernels in $outdir" >&2
	echo "$outdir"
	exit 0
fi

check_tools || exit 2
mkdir -p "$cache"
exec 9>"$cache/.build.lock"
flock 9

t0=$(date +%s)
log() { echo "build-kernel: [$(( $(date +%s) - t0 ))s] $*" >&2; }

# --- 1. the unpacked base tree, one git commit ----------------------------
[ -r "$tarball" ] || { echo "build-kernel: $tarball missing (apt-get install linux-source-6.12)" >&2; exit 2; }
tree=$cache/linux
if ! git -C "$tree" rev-parse -q --verify vxgbp-base >/dev/null 2>&1; then
	log "unpacking $tarball into $tree"
	rm -rf "$tree" "$cache/unpack.tmp"
	mkdir -p "$cache/unpack.tmp"
	tar -C "$cache/unpack.tmp" -xf "$tarball"
	mv "$cache/unpack.tmp"/linux-source-* "$tree"
	rmdir "$cache/unpack.tmp"
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo unknown)
	(
		cd "$tree"
		git init -q
		git config user.name "vxgbp build"
		git config user.email "vxgbp@localhost"
		git config core.autocrlf false
		git add -A -f . >/dev/null  # Debian's .gitignore ignores /*
		GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
			git commit -q -m "Debian linux-source-6.12 $ver (base)"
		git tag vxgbp-base
	)
	log "base commit $(git -C "$tree" rev-parse --short vxgbp-base)"
fi

export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
export KBUILD_BUILD_USER=vxgbp KBUILD_BUILD_HOST=vxgbp
export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache}
export CCACHE_BASEDIR=$cache
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-3G}
cc="gcc"
command -v ccache >/dev/null && cc="ccache gcc"
obj=$cache/obj
mkmake() { make -s -C "$tree" O="$obj" CC="$cc" HOSTCC="$cc" -j"$jobs" "$@"; }

# --- 2. back to the base, clean source tree --------------------------------
git -C "$tree" am --abort >/dev/null 2>&1 || true
git -C "$tree" checkout -q -f --detach vxgbp-base
git -C "$tree" clean -q -fdx

# --- 3. the config: tinyconfig + fragment ----------------------------------
cfg=$cache/cfg
mkdir -p "$cfg" "$obj"
make -s -C "$tree" O="$cfg" tinyconfig >/dev/null
"$tree"/scripts/kconfig/merge_config.sh -m -O "$cfg" "$cfg/.config" "$fragment" >/dev/null
make -s -C "$tree" O="$cfg" olddefconfig >/dev/null
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=y | CONFIG_*=\"*)
		grep -qxF "$line" "$cfg/.config" || { echo "build-kernel: not in .config: $line" >&2; missing=1; } ;;
	"# CONFIG_"*" is not set" | CONFIG_*=n)
		sym=${line#\# }; sym=${sym%% *}; sym=${sym%%=*}
		grep -q "^$sym=y" "$cfg/.config" && { echo "build-kernel: unexpectedly set: $sym" >&2; missing=1; } ;;
	esac
done <"$fragment"
[ "$missing" = 0 ] || { echo "build-kernel: config fragment not satisfied" >&2; exit 1; }
cmp -s "$cfg/.config" "$obj/.config" || cp "$cfg/.config" "$obj/.config"

# --- 4. build the base, then once per patch --------------------------------
tmpout=$outdir.tmp
rm -rf "$tmpout"
mkdir -p "$tmpout"
cp "$obj/.config" "$tmpout/config"
build_stage() { # $1 = stage name
	local ts=$(date +%s)
	mkmake bzImage
	cp "$obj/arch/x86/boot/bzImage" "$tmpout/bzImage-$1"
	echo "$1" >>"$tmpout/stages"
	log "stage $1 built in $(( $(date +%s) - ts ))s ($(stat -c %s "$tmpout/bzImage-$1") bytes)"
}
build_stage 00-base
echo "00-base -" >"$tmpout/stage-patches"
n=0
prev=00-base
for p in $(series_files | tail -n +2); do
	n=$((n + 1))
	name=$(printf '%02d-%s' "$n" "$(basename "$p" .patch | sed 's/^[0-9]*-//' | cut -c1-40)")
	git -C "$tree" am -q --keep-cr "$p"
	if git -C "$tree" diff --name-only HEAD~1 HEAD | grep -qv '^\(tools\|Documentation\)/'; then
		build_stage "$name"
	else
		cp "$tmpout/bzImage-$prev" "$tmpout/bzImage-$name"
		echo "$name" >>"$tmpout/stages"
		log "stage $name changes only tools/ or Documentation/, kernel of $prev reused"
	fi
	echo "$name ${p#"$series_dir"/}" >>"$tmpout/stage-patches"
	prev=$name
done
git -C "$tree" log --oneline vxgbp-base..HEAD >"$tmpout/commits"
# the selftest of the series, for the guests (qemu/scenarios/selftest.sh)
# (it sources forwarding/lib.sh, which sources ../lib.sh)
if [ -f "$tree/tools/testing/selftests/net/vxlan_gbp.sh" ]; then
	st=$tree/tools/testing/selftests/net
	mkdir -p "$tmpout/selftests/forwarding"
	cp "$st/vxlan_gbp.sh" "$st/lib.sh" "$tmpout/selftests/"
	cp "$st/forwarding/lib.sh" "$tmpout/selftests/forwarding/"
fi
mkmake -s kernelrelease >"$tmpout/kernelrelease" 2>/dev/null || true
ln -sf "bzImage-$prev" "$tmpout/bzImage"
ln -sf "bzImage-00-base" "$tmpout/bzImage-unpatched"
echo "$(( $(date +%s) - t0 ))" >"$tmpout/build-seconds"
touch "$tmpout/done"
rm -rf "$outdir"
mv "$tmpout" "$outdir"
log "done: $outdir"
echo "$outdir"
