#!/bin/sh
# fixtures.sh MKLABELS FIXTURES_DIR: regenerate the label fixtures into a
# temporary folder and compare each with the committed capture.
# To update them after a deliberate change:  MKLABELS fixtures/labels
set -u
mk=$1 fix=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$mk" "$tmp" || { echo "mklabels failed"; exit 1; }
fail=0 n=0
for f in "$tmp"/*.pcap; do
	b=$(basename "$f")
	n=$((n + 1))
	if ! cmp -s "$f" "$fix/$b"; then
		echo "fixtures/labels/$b differs from what mklabels makes now"
		fail=1
	fi
done
for f in "$fix"/*.pcap; do
	[ -e "$tmp/$(basename "$f")" ] || { echo "fixtures/labels/$(basename "$f") is not made by mklabels"; fail=1; }
done
[ $fail -eq 0 ] && echo "$n label fixtures reproduced byte for byte"
exit $fail
