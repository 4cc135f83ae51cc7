#!/bin/sh
# tests/merge/recipe.sh GBPDUMP DOC FIXTURE: the GNU parallel recipe of
# docs/merge.md, the lines between its recipe markers run as written in a
# directory whose caps/ holds FIXTURE cut in three; its stats.txt and
# check.txt must be what one run over FIXTURE prints.
set -u
G=$1 DOC=$2 FIX=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }
command -v parallel > /dev/null || { echo "FAIL: GNU parallel missing (scripts/deps/merge.list)"; exit 1; }

sed -n '/^<!-- recipe/,/^<!-- end recipe/p' "$DOC" | sed '/^<!--/d; /^```/d' > "$tmp/recipe.sh"
[ "$(wc -l < "$tmp/recipe.sh")" -ge 2 ] || { echo "FAIL: no recipe in $DOC"; exit 1; }
mkdir "$tmp/caps" "$tmp/bin"
ln -s "$(cd "$(dirname "$G")" && pwd)/$(basename "$G")" "$tmp/bin/gbpdump"
n=$("$G" -r "$FIX" --stats --json | jq .stats.frames)
if ! editcap -F pcap -r "$FIX" "$tmp/caps/a.pcap" "1-3" ||
	! editcap -F pcap -r "$FIX" "$tmp/caps/b.pcap" "4-6" ||
	! editcap -F pcap -r "$FIX" "$tmp/caps/c.pcap" "7-$n"; then
	err "editcap"
fi
(cd "$tmp" && HOME=$tmp PATH="$tmp/bin:$PATH" sh recipe.sh 2> "$tmp/err")
# (the last line is the merged --check: its exit status is the verdict's)
"$G" -r "$FIX" --stats > "$tmp/one-stats.txt"
"$G" -r "$FIX" --check > "$tmp/one-check.txt"
cmp "$tmp/stats.txt" "$tmp/one-stats.txt" || err "the recipe's --stats differs from one run"
cmp "$tmp/check.txt" "$tmp/one-check.txt" || err "the recipe's --check differs from one run"
[ -s "$tmp/stats.txt" ] || err "no output"
exit $fail
