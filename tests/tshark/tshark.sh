#!/bin/sh
# tshark.sh - run tshark with the vxgbp plugin from the build tree, isolated
# from the user's Wireshark profile.
#
#   tshark.sh PLUGIN.so [tshark arguments ...]
#   tshark.sh none [tshark arguments ...]     (the same, without the plugin)
#
# The capture is best given on standard input (-r -), so that it need not be
# readable by the user tshark runs as.
#
# Wireshark ignores WIRESHARK_PLUGIN_DIR and the personal plugin folder when it
# runs as root, so as root tshark runs as nobody (setpriv).  The plugin is
# copied into a fresh folder of the layout Wireshark expects
# (<dir>/<major>.<minor>/epan/), HOME is a fresh folder too.
#
# Environment:
#   TSHARK                 tshark binary (default: tshark)
#   VXGBP_WS_SERIES        plugin folder version, e.g. 4.0 (default: from tshark)
#   VXGBP_TSHARK_PRELOAD   libraries to LD_PRELOAD (the ASan/UBSan runtimes when
#                          the plugin is built with VXGBP_SANITIZE); leak
#                          detection is then always off (tshark itself is not
#                          leak-free at exit; the plugin allocates only from
#                          Wireshark's pools and at registration)
set -u
plugin=$1
shift
TSHARK=${TSHARK:-tshark}
series=${VXGBP_WS_SERIES:-$("$TSHARK" -v 2>/dev/null | sed -n '1s/^TShark (Wireshark) \([0-9]*\.[0-9]*\).*/\1/p')}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vxgbp-tshark.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
mkdir -p "$tmp/plugins/$series/epan" "$tmp/home" "$tmp/extcap" || exit 2
if [ "$plugin" != none ]; then
	cp "$plugin" "$tmp/plugins/$series/epan/vxgbp.so" || exit 2
fi
chmod -R a+rX "$tmp"

# No extcap programs: they are not under test, and they would inherit the
# sanitizer preload (androiddump hangs under it).
set -- env HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" \
	WIRESHARK_PLUGIN_DIR="$tmp/plugins" WIRESHARK_EXTCAP_DIR="$tmp/extcap" "$TSHARK" "$@"
if [ -n "${VXGBP_TSHARK_PRELOAD:-}" ]; then
	set -- env LD_PRELOAD="$VXGBP_TSHARK_PRELOAD" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:abort_on_error=1" \
		UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" "$@"
fi
if [ "$(id -u)" = 0 ]; then
	chown -R 65534:65534 "$tmp/home"
	set -- setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
fi
"$@"
