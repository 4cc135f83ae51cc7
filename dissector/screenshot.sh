#!/bin/sh
# screenshot.sh - a screenshot of the vxgbp plugin in Wireshark's GUI, made
# under Xvfb (no display needed).
#
#   dissector/screenshot.sh [BUILD_DIR] [CAPTURE] [FRAME] [OUT.png] [ROW] [VIEW]
#
# Defaults: build, fixtures/basic-gbp.pcap, frame 2,
# docs/screenshots/wireshark-vxgbp.png, and ROW "last": the line of the
# details tree to expand (1 is the Frame line); vxgbp is a postdissector, so
# its line is the last one (after VXLAN and the inner frame) when the frame
# has one VXLAN header.  Group names come from fixtures/groups.txt (turned
# into the plugin's vxgbp_groups table).  VIEW "top" (default) shows the
# expanded line from its top; "bottom" selects its last line, so the end of
# a long tree (the findings) is in view, and gives the packet list less room.
# Needs: wireshark (Qt), xvfb, xdotool, imagemagick (scripts/deps/dissector.list).
#
# Wireshark ignores WIRESHARK_PLUGIN_DIR as root, so as root it runs as
# nobody, with a fresh HOME holding a profile made for the picture: packet
# list and details only, the frame selected and its tree expanded.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
capture=${2:-$top/fixtures/basic-gbp.pcap}
frame=${3:-2}
out=${4:-$top/docs/screenshots/wireshark-vxgbp.png}
row=${5:-last}
view=${6:-top}
upper=300
[ "$view" = bottom ] && upper=150
series=$(tshark -v 2>/dev/null | sed -n '1s/^TShark (Wireshark) \([0-9]*\.[0-9]*\).*/\1/p')
plugin=$build/plugins/$series/epan/vxgbp.so
[ -f "$plugin" ] || { echo "screenshot.sh: no plugin at $plugin (build first)" >&2; exit 2; }
for t in wireshark Xvfb xdotool import; do
	command -v $t >/dev/null || { echo "screenshot.sh: $t is not installed" >&2; exit 2; }
done

tmp=$(mktemp -d)
xvfb_pid= ws_pid=
cleanup() {
	[ -n "$ws_pid" ] && kill "$ws_pid" 2>/dev/null
	[ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM

mkdir -p "$tmp/plugins/$series/epan" "$tmp/home/.config/wireshark"
cp "$plugin" "$tmp/plugins/$series/epan/"
cp "$capture" "$tmp/capture.pcap"
conf=$tmp/home/.config/wireshark
# Group names: "0x200 web" lines -> UAT records "512","web".
sed -e 's/#.*//' "$top/fixtures/groups.txt" | while read -r id name; do
	[ -n "$id" ] && printf '"%d","%s"\n' "$id" "$name"
done > "$conf/vxgbp_groups"
cat > "$conf/recent_common" <<'EOF'
gui.geometry_main_x: 0
gui.geometry_main_y: 0
gui.geometry_main_width: 1280
gui.geometry_main_height: 800
gui.geometry_main_maximized: TRUE
privs.warn_if_elevated: FALSE
EOF
cat > "$conf/recent" <<EOF
gui.toolbar_main_show: TRUE
gui.filter_toolbar_show: TRUE
gui.packet_list_show: TRUE
gui.tree_view_show: TRUE
gui.byte_view_show: FALSE
gui.statusbar_show: TRUE
gui.time_format: RELATIVE
gui.geometry_main_upper_pane: $upper
EOF
cat > "$conf/preferences" <<'EOF'
gui.update.enabled: FALSE
gui.ask_unsaved: FALSE
gui.tlskeylog_command:
gui.packet_list_show_minimap: FALSE
gui.column.format: "No.", "%m", "Time", "%t", "Source", "%s", "Destination", "%d", "Protocol", "%p", "Length", "%L", "Info", "%i"
EOF
chmod -R a+rX "$tmp"

Xvfb :97 -screen 0 1280x800x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
sleep 1
export DISPLAY=:97
run() {
	if [ "$(id -u)" = 0 ]; then
		chown -R 65534:65534 "$tmp/home"
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}
run env HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_RUNTIME_DIR="$tmp/home" \
	WIRESHARK_PLUGIN_DIR="$tmp/plugins" QT_QPA_PLATFORM=xcb \
	wireshark -r "$tmp/capture.pcap" -g "$frame" >"$tmp/ws.log" 2>&1 &
ws_pid=$!
win=$(timeout 60 xdotool search --sync --onlyvisible --name 'capture' | head -1)
sleep 3
xdotool windowactivate --sync "$win" 2>/dev/null || true
xdotool windowsize "$win" 1280 800 windowmove "$win" 0 0 2>/dev/null || true
sleep 1
# Focus the details tree (click its first line: the layout above is fixed,
# the tree starts below the packet list), go down to the vxgbp line and
# expand it with its subtrees (Shift+Right).
xdotool mousemove 300 418 click 1
sleep 0.5
if [ "$row" = last ]; then
	xdotool key End
else
	i=1
	while [ "$i" -lt "$row" ]; do
		xdotool key Down
		i=$((i + 1))
	done
fi
xdotool key shift+Right
if [ "$view" = bottom ]; then
	sleep 0.5
	xdotool key End
fi
xdotool mousemove 1270 790
sleep 2
mkdir -p "$(dirname "$out")"
import -window root -colors 256 "PNG8:$out"
echo "screenshot.sh: wrote $out ($(wc -c < "$out") bytes)"
