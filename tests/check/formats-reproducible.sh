#!/bin/sh
# formats-reproducible.sh GBPGEN FIXTURES
# The committed captures of fixtures/formats/ are exactly what
# fixtures/formats/make-formats.sh writes.
gbpgen=$1 fix=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh "$fix/formats/make-formats.sh" "$gbpgen" "$tmp" >/dev/null || exit 1
fail=0 n=0
for f in "$tmp"/*.pcap; do
	n=$((n + 1))
	if ! cmp -s "$f" "$fix/formats/$(basename "$f")"; then
		echo "formats-reproducible: $(basename "$f") differs from what make-formats.sh writes" >&2
		fail=1
	fi
done
for f in "$fix"/formats/*.pcap; do
	[ -f "$tmp/$(basename "$f")" ] || { echo "formats-reproducible: $(basename "$f") is made by nothing" >&2; fail=1; }
done
[ $n -gt 0 ] || fail=1
[ $fail = 0 ] && echo "formats-reproducible: $n captures as made"
exit $fail
