#!/bin/sh
# tests/merge/split.sh GBPDUMP FIXTURES [quick]: every fixture split into 2, 3 and
# 4 parts at several points (editcap); the summaries of the parts
# (--stats --json, --check --json under each profile) merged with
# gbpdump --merge must print exactly what one run over the whole capture
# prints, text and JSON (the JSON without its "summary", whose inputs
# differ), and merging merged summaries must give the same bytes as
# merging the parts at once.  A merge may only be approximate (the
# "merge: approximate" line, summary.approximate) where the test expects
# it: a policy re-sighting across a split point (docs/merge.md).
set -u
G=$1 FIX=$2 QUICK=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 cases=0 approx=0
err() { echo "FAIL: $*"; fail=1; }

# shellcheck source=tests/merge/lib.sh disable=SC2034 # G, SPLIT: used by lib.sh
. "$(dirname "$0")/lib.sh"

for f in "$FIX"/*.pcap "$FIX"/check/*.pcap; do
	# a capture cut short: its parts (editcap) hold the frames before the
	# cut and no error, and so does the run compared with (partial.sh in
	# tests/robustness merges a cut capture's summary)
	if ! "$G" -r "$f" --stats > /dev/null 2>&1; then
		editcap -F pcap -r "$f" "$tmp/whole.pcap" 2> /dev/null
		f=$tmp/whole.pcap
	fi
	n=$(frames "$f")
	[ "$n" -ge 2 ] || continue
	splits="1|$((n / 2))|$((n - 1))|1 $((n / 2))|1 2 $((n - 1))"
	# quick (sanitizer builds, 15 times slower): one split in two, one in four
	[ -z "$QUICK" ] || splits="$((n / 2))|1 2 $((n - 1))"
	IFS='|'
	# shellcheck disable=SC2086 # splits: one word per split on purpose
	set -- $splits
	IFS=' 	
'
	for split in "$@"; do
		# points must rise and stay inside the capture
		ok=1 last=0
		for p in $split; do [ "$p" -gt "$last" ] && [ "$p" -lt "$n" ] || ok=0; last=$p; done
		[ $ok = 1 ] || continue
		SPLIT=" $split"
		# shellcheck disable=SC2046,SC2086
		set -- $(parts "$f" $split)
		same "$f" --stats -- "$@"
		same "$f" --check -- "$@"
		# the other profiles at one split point (their rules' levels differ)
		[ "$split" = "$((n / 2))" ] || continue
		for prof in linux vpp offload; do
			same "$f" --check --profile $prof -- "$@"
		done
	done
done
# the only approximate merges: a policy re-sighting split from its first sighting
if [ -f "$tmp/approx.log" ]; then
	grep -v 'gbp\.policy-\(reapplied\|applied-cleared\)\.yes\.pcap --check' "$tmp/approx.log" |
		sed 's/^/unexpected: /' | grep . && err "approximate where no policy re-sighting was split"
fi
echo "$cases merges compared, $approx approximate"
[ "$cases" -ge "$([ -n "$QUICK" ] && echo 150 || echo 300)" ] || err "only $cases merges compared"
exit $fail
