#!/bin/sh
# reproducible.sh GBPGEN FIXTURES/check
# The committed fixtures/check/*.pcap are exactly what make-fixtures.sh
# writes from specs/*.spec, and every spec has its capture.
gbpgen=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash "$dir/make-fixtures.sh" "$gbpgen" "$tmp" >/dev/null || exit 1
fail=0
for f in "$tmp"/*.pcap; do
	cmp -s "$f" "$dir/$(basename "$f")" || { echo "reproducible.sh: $(basename "$f") differs" >&2; fail=1; }
done
for f in "$dir"/*.pcap; do
	[ -e "$tmp/$(basename "$f")" ] || { echo "reproducible.sh: $(basename "$f") has no spec" >&2; fail=1; }
done
[ $fail = 0 ] && echo "reproducible.sh: $(ls "$tmp" | wc -l) captures match"
exit $fail
