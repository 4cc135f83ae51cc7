#!/bin/bash
# bare.sh - the README's commands on a bare Debian 12 (issue 28).
#
# The suite runs on a machine where every list of scripts/deps/ is installed,
# so a package missing from a list shows nowhere but on a user's machine.
# These checks run the commands in a minimal Debian 12 root instead:
#
#   bare.sh demo SRC   a fresh minbase root: ./demo.sh prints exactly
#                      tests/bare/demo.expected, and installs exactly what
#                      scripts/deps/demo.list names
#   bare.sh deb SRC    a fresh minbase root: scripts/install-deps deb
#                      satisfies debian/control (dpkg-checkbuilddeps)
#   bare.sh build SRC  a root with every list installed (scripts/install-deps):
#                      ./test.sh --build-only (both build types) configures
#                      with nothing missing and builds
#
# The minbase root comes from mmdebstrap with this host's apt sources (read
# from /etc/apt; no archive is named here) and is cached as a tarball in
# ${VXGBP_CACHE:-/var/cache/vxgbp}/bare, keyed by the sources; the root with
# every list installed is keyed by the lists too.  Each check unpacks a
# fresh copy and removes it at the end; downloaded .debs are kept in the
# cache so a warm run does not fetch them again.  Needs root (chroot).
set -euo pipefail

cache=${VXGBP_CACHE:-/var/cache/vxgbp}/bare
here=$(cd "$(dirname "$0")" && pwd)
# bump when the way a root is made changes
recipe=1

die() { echo "bare: $*" >&2; exit 1; }
log() { echo "bare: [$(( $(date +%s) - t0 ))s] $*" >&2; }
t0=$(date +%s)

[ $# -eq 2 ] || { echo "usage: $0 demo|deb|build SRC" >&2; exit 2; }
what=$1
src=$(cd "$2" && pwd)
[ "$(id -u)" -eq 0 ] || die "needs root (it makes a Debian root and chroots into it)"
for t in mmdebstrap unshare chroot git; do
	command -v "$t" >/dev/null || die "$t is missing (scripts/install-deps bare)"
done
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 ||
	die "$src is not a git checkout: the check copies its tracked files"

# --- the host's apt configuration --------------------------------------------
# Sources, the Acquire:: settings (proxies, validity of snapshots) and the
# keyrings the sources name: the root must reach the archive the host reaches.
apt_sources() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && grep -qv '^[[:space:]]*\(#\|$\)' "$f" && echo "$f"
	done
	return 0
}
apt_confs() {
	local f
	for f in /etc/apt/apt.conf /etc/apt/apt.conf.d/*; do
		[ -f "$f" ] && grep -q 'Acquire' "$f" && echo "$f"
	done
	return 0
}
apt_keyrings() {
	# shellcheck disable=SC2046
	sed -n -e 's/^Signed-By:[[:space:]]*\(\/[^[:space:]]*\).*/\1/p' \
		-e 's/.*signed-by=\(\/[^] ]*\).*/\1/p' $(apt_sources) | sort -u
}
sources=$(apt_sources)
[ -n "$sources" ] || die "no apt sources in /etc/apt: cannot reach a Debian archive"

key_of() { # files... -> 16 hex digits of their names and contents
	local f
	for f in "$@"; do printf '%s\n' "$f"; sha256sum <"$f"; done | sha256sum | cut -c1-16
}
# shellcheck disable=SC2046
base_key=$(printf 'bookworm minbase recipe %s\n%s' "$recipe" \
	"$(key_of $sources $(apt_confs))" | sha256sum | cut -c1-16)
# shellcheck disable=SC2046
full_key=$(printf '%s\n%s' "$base_key" \
	"$(key_of "$src"/scripts/install-deps $(ls "$src"/scripts/deps/*.list))" |
	sha256sum | cut -c1-16)

need_space() { # MiB
	local free
	mkdir -p "$cache"
	free=$(df -Pm "$cache" | awk 'NR == 2 { print $4 }')
	[ "$free" -ge "$1" ] || die "only $free MiB free in $cache, the check needs $1 MiB"
}

# --- roots -------------------------------------------------------------------
runs=()
cleanup() {
	local r
	for r in "${runs[@]}"; do
		# unshare's mount namespace took /proc with it; never cross a mount
		[ -d "$r" ] && rm -rf --one-file-system "$r"
	done
	# a failed run publishes nothing (mmdebstrap names its output by suffix)
	rm -rf --one-file-system "$cache/tmp.$$.tar"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# the minbase tarball: made once per key (one maker at a time), published
# by rename; sets $tar
base_tar() {
	local log=$cache/minbase-$base_key.log a opts=()
	tar=$cache/minbase-$base_key.tar
	mkdir -p "$cache"
	exec 8>"$cache/.minbase.lock"
	flock 8
	[ -f "$tar" ] && { exec 8>&-; return; }
	need_space 1024
	for a in $(apt_confs); do opts+=(--aptopt="$a"); done
	log "making a Debian 12 minbase root (mmdebstrap, the host's apt sources)"
	# shellcheck disable=SC2086
	if ! mmdebstrap --variant=minbase --mode=root "${opts[@]}" bookworm \
		"$cache/tmp.$$.tar" $sources >"$log" 2>&1; then
		die "cannot make a Debian 12 root: $(grep -E '^(E|W):' "$log" | tail -n 1 || tail -n 1 "$log") (log: $log)"
	fi
	mv "$cache/tmp.$$.tar" "$tar"
	exec 8>&-
	log "minbase root cached: $tar ($(du -sm "$tar" | cut -f1) MiB)"
}

# a fresh root from a tarball, with the host's resolver and apt settings;
# sets $r
fresh_root() { # tarball
	local k a
	need_space 512
	r=$(mktemp -d "$cache/run.XXXXXX")
	runs+=("$r")
	tar -C "$r" -xf "$1"
	cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
	[ -f /etc/hosts ] && cp /etc/hosts "$r/etc/hosts"
	for a in $(apt_confs); do cp "$a" "$r/etc/apt/apt.conf.d/99host-${a##*/}"; done
	for k in $(apt_keyrings); do
		[ -e "$r$k" ] || { mkdir -p "$r${k%/*}"; cp "$k" "$r$k"; }
	done
	mkdir -p "$cache/debs/partial" "$r/vxgbp"
}

# run a command as root in the root: /proc mounted in a mount namespace of
# its own (gone when the command ends), the .deb cache shared between runs,
# a clean environment as a root login would have
in_root() { # root cmd...
	local r=$1; shift
	unshare --mount --propagation private /bin/sh -c '
		r=$1; d=$2; shift 2
		mount -t proc proc "$r/proc" &&
		mount --bind "$d" "$r/var/cache/apt/archives" &&
		exec chroot "$r" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TZ=UTC \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			"$@"' sh "$r" "$cache/debs" "$@"
}

# the same with the shared .deb cache held: another root's apt holding
# /var/cache/apt/archives makes apt fail, not wait (concurrent checks)
in_root_apt() { # root cmd...
	(flock 6 && in_root "$@") 6>"$cache/debs/.lock"
}

copy_tree() { # root: the tracked files of $src into /vxgbp
	git -C "$src" ls-files -z | (cd "$src" && tar --null -T - --ignore-failed-read -cf -) |
		tar -C "$1/vxgbp" -xf -
}

# the line of a log that says what went wrong
first_error() {
	{ grep -m 1 -E 'not found|No package|rror|missing' "$1" || grep -v '^ *$' "$1" | tail -n 1; } |
		sed 's/^[[:space:]]*//'
}

manual() { in_root "$1" apt-mark showmanual | sort -u; }
list_pkgs() { # list names -> packages
	local l
	for l in "$@"; do
		[ -f "$src/scripts/deps/$l.list" ] || die "scripts/deps/$l.list does not exist"
		sed 's/#.*//' "$src/scripts/deps/$l.list"
	done | tr -s ' \t' '\n' | sed '/^$/d' | sort -u
}

# what a command installed (manually) must be what the lists name
check_installed() { # before-file after-file lists...
	local before=$1 after=$2 extra missing; shift 2
	extra=$(comm -13 "$before" "$after" | comm -23 - <(list_pkgs "$@") | tr '\n' ' ')
	missing=$(list_pkgs "$@" | comm -23 - "$after" | tr '\n' ' ')
	[ -z "$extra" ] || die "installed packages that scripts/deps/{$(IFS=,; echo "$*")}.list do not name: $extra"
	[ -z "$missing" ] || die "not installed although listed: $missing"
}

# the root with every list installed: made once per key; sets $tar
full_tar() {
	local full=$cache/full-$full_key.tar
	mkdir -p "$cache"
	exec 7>"$cache/.full.lock"
	flock 7
	[ -f "$full" ] && { tar=$full; exec 7>&-; return; }
	need_space 8192
	base_tar
	fresh_root "$tar"
	tar=$full
	cp -a "$src/scripts" "$r/vxgbp/"
	manual "$r" >"$r/manual.before"
	log "installing every list (scripts/install-deps) into a fresh root"
	in_root_apt "$r" /vxgbp/scripts/install-deps >"$r/install.log" 2>&1 ||
		die "scripts/install-deps failed in a bare root: $(grep -E '^(E|W):|install-deps' "$r/install.log" | tail -n 1)"
	manual "$r" >"$r/manual.after"
	# shellcheck disable=SC2046
	check_installed "$r/manual.before" "$r/manual.after" \
		$(cd "$src/scripts/deps" && ls ./*.list | sed 's|^\./||; s|\.list$||')
	rm -rf "$r/vxgbp" "$r/install.log" "$r/manual.before" "$r/manual.after"
	tar -C "$r" -cf "$cache/tmp.$$.tar" .
	mv "$cache/tmp.$$.tar" "$tar"
	exec 7>&-
	# shellcheck disable=SC2046
	rm -f $(ls "$cache"/full-*.tar | grep -vxF "$tar")
	log "root with every list cached: $tar ($(du -sm "$tar" | cut -f1) MiB)"
}

# --- the checks ----------------------------------------------------------------
check_demo() {
	base_tar
	fresh_root "$tar"
	copy_tree "$r"
	manual "$r" >"$r/manual.before"
	log "./demo.sh in a fresh Debian 12 minbase root"
	if ! in_root_apt "$r" sh -c 'cd /vxgbp && ./demo.sh' >"$r/demo.out" 2>"$r/demo.err"; then
		tail -n 20 "$r/demo.err" >&2
		die "./demo.sh failed on a bare Debian 12: $(first_error "$r/demo.err")"
	fi
	manual "$r" >"$r/manual.after"
	check_installed "$r/manual.before" "$r/manual.after" demo
	diff -u "$here/demo.expected" "$r/demo.out" >&2 ||
		die "./demo.sh printed something else than tests/bare/demo.expected"
	log "./demo.sh: the expected output, installing exactly scripts/deps/demo.list" \
		"(the root: $(du -sm "$r" | cut -f1) MiB, of which the minbase $(du -sm "$tar" | cut -f1) MiB)"
}

check_deb() {
	base_tar
	fresh_root "$tar"
	copy_tree "$r"
	manual "$r" >"$r/manual.before"
	log "scripts/install-deps deb in a fresh Debian 12 minbase root"
	in_root_apt "$r" /vxgbp/scripts/install-deps deb >"$r/install.log" 2>&1 ||
		die "scripts/install-deps deb failed: $(grep -E '^(E|W):|install-deps' "$r/install.log" | tail -n 1)"
	manual "$r" >"$r/manual.after"
	check_installed "$r/manual.before" "$r/manual.after" deb
	local out
	out=$(in_root "$r" sh -c 'cd /vxgbp && dpkg-checkbuilddeps' 2>&1) ||
		die "scripts/deps/deb.list does not satisfy debian/control: ${out##*error: }"
	log "scripts/install-deps deb satisfies dpkg-checkbuilddeps"
}

check_build() {
	full_tar
	fresh_root "$tar"
	copy_tree "$r"
	manual "$r" >"$r/manual.before"
	log "./test.sh --build-only in a root with every list installed"
	if ! in_root "$r" sh -c 'cd /vxgbp && ./test.sh --build-only' >"$r/build.log" 2>&1; then
		grep -E 'error|Error|not found|NOTFOUND' "$r/build.log" | tail -n 20 >&2
		die "./test.sh --build-only failed in a root with every list: $(first_error "$r/build.log")"
	fi
	manual "$r" >"$r/manual.after"
	cmp -s "$r/manual.before" "$r/manual.after" ||
		die "the build installed packages: $(comm -13 "$r/manual.before" "$r/manual.after" | tr '\n' ' ')"
	log "both builds of ./test.sh configure with nothing missing and build" \
		"(the root: $(du -sm "$r" | cut -f1) MiB, of which the build trees $(du -csm "$r"/vxgbp/build* | tail -n 1 | cut -f1) MiB)"
}

case $what in
demo) check_demo ;;
deb) check_deb ;;
build) check_build ;;
*) echo "usage: $0 demo|deb|build SRC" >&2; exit 2 ;;
esac
