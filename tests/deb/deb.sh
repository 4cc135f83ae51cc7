#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# deb.sh SOURCE_DIR PROJECT_VERSION: the ctest deb.packages.
#  1. copies the source tree (the files git knows of, tracked or new, as they
#     are in the work tree; no build folders) into a fresh folder below
#     ${TMPDIR:-/var/tmp} and builds it with
#     DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -us -uc -b -Pnocheck;
#  2. lintian on the .changes and on the source package (dpkg-source -b of
#     the same copy, made before the build): any E: or W: fails;
#  3. each package's files (dpkg-deb -c, directories left out) are exactly
#     tests/deb/contents/<package>.txt (@MULTIARCH@, @WS_SERIES@ and
#     @VERSION@ filled in) plus, for vxgbp-tools, every man page and bash
#     completion that cmake --install put into debian/tmp; vxgbp-tools'
#     Depends names libpcap, zlib, libzstd and liblzma (dpkg-shlibdeps);
#  4. unpacks every package (dpkg -x) into one tree and runs the
#     autopkgtest scripts debian/tests/{gbpdump,libvxgbp-dev,wireshark-plugin}
#     on it.
# Nothing is installed on the machine.  Each step prints its time.
set -eu
src=$1 version=$2
here=$(cd "$(dirname "$0")" && pwd)
for t in git dpkg-buildpackage dh lintian dpkg-deb tshark; do
	command -v "$t" > /dev/null || { echo "deb.sh: $t is missing (scripts/install-deps deb dissector)"; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/var/tmp}/vxgbp-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 2' HUP INT TERM
chmod 755 "$work"
t0=$(date +%s)
step() { echo "deb.sh: $1 ($(( $(date +%s) - t0 )) s)"; }
fail() { echo "deb.sh: FAIL: $*"; exit 1; }

# 1. the copy and the build
mkdir "$work/src"
# (files deleted in the work tree but still in the index are left out)
# shellcheck disable=SC2016
git -C "$src" ls-files -z --cached --others --exclude-standard |
	(cd "$src" && xargs -0 sh -c 'for f; do [ -e "$f" ] || [ -L "$f" ] && printf "%s\0" "$f"; done' sh) |
	(cd "$src" && tar --null -T - -cf -) | tar -xf - -C "$work/src"
[ -f "$work/src/debian/control" ] || fail "no debian/control in the copy of $src"
deb_version=$(cd "$work/src" && dpkg-parsechangelog -SVersion)
[ "${deb_version%%-*}" = "$version" ] ||
	fail "debian/changelog says $deb_version, CMakeLists.txt project() says $version"
step "copied $(find "$work/src" -type f | wc -l) files"
# the source package first, from the clean copy (for lintian's source checks)
(cd "$work/src" && dpkg-source -b .) > "$work/source.log" 2>&1 ||
	{ cat "$work/source.log"; fail "dpkg-source -b failed"; }
(cd "$work/src" && DEB_BUILD_OPTIONS="nocheck parallel=2" \
	dpkg-buildpackage -us -uc -b -Pnocheck) > "$work/build.log" 2>&1 ||
	{ tail -60 "$work/build.log"; fail "dpkg-buildpackage failed (log above)"; }
step "dpkg-source -b, dpkg-buildpackage -b"

# 2. lintian
changes=$(ls "$work"/*.changes)
dsc=$(ls "$work"/*.dsc)
rc=0
lintian --no-cfg --fail-on error,warning "$dsc" "$changes" > "$work/lintian.log" 2>&1 || rc=$?
sed '/^running with root privileges/d' "$work/lintian.log"
if [ $rc != 0 ] || grep -q '^[EW]: ' "$work/lintian.log"; then
	fail "lintian: exit status $rc, errors or warnings (above)"
fi
step "lintian: no error, no warning"

# 3. contents
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
ws=$(pkg-config --modversion wireshark | sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
# (and the -dbgsym packages dh_strip makes of those with ELF objects)
debs=$(cd "$work" && ls ./*.deb | sed 's,^\./,,; s/_.*//; /-dbgsym$/d' | sort | tr '\n' ' ')
want_debs=$(for f in "$here"/contents/*.txt; do basename "$f" .txt; done | sort | tr '\n' ' ')
[ "$debs" = "$want_debs" ] || fail "packages built: $debs; expected: $want_debs"
for f in "$here"/contents/*.txt; do
	pkg=$(basename "$f" .txt)
	deb=$(ls "$work/${pkg}_"*.deb)
	sed -e '/^#/d' -e "s/@MULTIARCH@/$ma/g" -e "s/@WS_SERIES@/$ws/g" -e "s/@VERSION@/$version/g" \
		"$f" > "$work/want.$pkg"
	if [ "$pkg" = vxgbp-tools ]; then
		# whatever man pages and completions cmake --install made must land
		(cd "$work/src/debian/tmp" && find usr/share/man usr/share/bash-completion \
			\( -type f -o -type l \) 2>/dev/null) |
			sed -e 's,^,/,' -e 's,^\(/usr/share/man/.*\)$,\1.gz,' >> "$work/want.$pkg"
	fi
	sort -u -o "$work/want.$pkg" "$work/want.$pkg"
	dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' | sed 's,^\./,/,' | sort > "$work/got.$pkg"
	diff -u "$work/want.$pkg" "$work/got.$pkg" ||
		fail "$pkg: files differ from tests/deb/contents/$pkg.txt (+ in the package, - missing)"
done
step "contents of $(ls "$here"/contents/*.txt | wc -l) packages as expected"

# gbpdump's libraries reach vxgbp-tools' Depends through ${shlibs:Depends}
# (debian/control names none by hand: they are linked, docs/packaging.md)
deps=$(dpkg-deb -f "$(ls "$work"/vxgbp-tools_*.deb)" Depends)
for lib in libpcap0.8 zlib1g libzstd1 liblzma5; do
	echo "$deps" | grep -Eq "(^|, )$lib( \(|,|$)" ||
		fail "vxgbp-tools: Depends has no $lib (dpkg-shlibdeps: is gbpdump linked with it?): $deps"
done
step "vxgbp-tools depends on libpcap, zlib, libzstd, liblzma"

# 4. the autopkgtest scripts on the unpacked packages
root=$work/root
mkdir "$root"
for f in "$here"/contents/*.txt; do
	dpkg -x "$(ls "$work/$(basename "$f" .txt)_"*.deb)" "$root"
done
chmod -R a+rX "$work"
for t in $(sed -n 's/^Tests: *//p' "$work/src/debian/tests/control"); do
	(cd "$work/src" && sh "debian/tests/$t" "$root") || fail "debian/tests/$t on the unpacked packages"
done
step "debian/tests passed on the unpacked packages"
