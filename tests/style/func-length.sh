#!/bin/sh
# func-length.sh [MAX] - no function in libvxgbp, gbpdump, tools, common or
# dissector is longer than MAX lines (80), body braces included.  Functions
# are found in kernel style: a '{' alone in column 0 opens one, the first
# '}' in column 0 after it closes it; the line before the '{' names it.
# Exceptions (the parser's switch tables) are listed below with a reason.
max=${1:-80}
cd "$(dirname "$0")/../.." || exit 2
# name: why it may be longer
allow='
proto_register_vxgbp: Wireshark'"'"'s hf_/ett_ registration arrays, data in one function
'
bad=0
for f in libvxgbp/src/*.c gbpdump/*.c gbpdump/*/*.c tools/*.c common/*.c dissector/*.c; do
	[ -f "$f" ] || continue
	out=$(awk -v max="$max" -v file="$f" '
		/^[A-Za-z_].*\(/ { sig = $0 }
		/^\{/ { start = NR; name = sig; next }
		/^\}/ && start { n = NR - start + 1
			if (n > max) {
				sub(/\(.*/, "", name); k = split(name, w, /[ *]+/)
				printf "%s:%d: %s is %d lines\n", file, start, w[k], n
			}
			start = 0 }' "$f")
	[ -n "$out" ] || continue
	echo "$out" | while IFS= read -r line; do
		fn=${line##*: }; fn=${fn%% is *}
		if printf '%s\n' "$allow" | grep -q "^$fn:"; then
			echo "allowed: $line"
		else
			echo "too long: $line"
		fi
	done
done | tee /tmp/func-length.$$ >&2
grep -q '^too long' /tmp/func-length.$$ && bad=1
rm -f /tmp/func-length.$$
if [ $bad -ne 0 ]; then
	echo "func-length: functions over $max lines (split them, or list a parser table above)" >&2
	exit 1
fi
echo "func-length: every function within $max lines"
