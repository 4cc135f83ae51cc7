#!/bin/sh
# Regenerate every crafted fixture into a temporary folder and compare byte
# for byte with the committed capture.
set -u
build=$1 fixtures=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$fixtures/regen.sh" "$build" "$tmp" || { echo "regen.sh failed"; exit 1; }
fail=0
for f in "$tmp"/*; do
	n=$(basename "$f")
	if ! cmp -s "$f" "$fixtures/$n"; then
		echo "fixtures/$n differs from what fixtures/regen.sh makes now"
		fail=1
	fi
done
[ $fail -eq 0 ] && echo "$(ls "$tmp" | wc -l) fixtures reproduced byte for byte"
exit $fail
