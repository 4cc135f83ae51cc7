# tests/merge/lib.sh: sourced by the merge tests.  Needs G (gbpdump), tmp,
# and err(); counts cases and approx; SPLIT names the split for messages.
# shellcheck shell=sh
# shellcheck disable=SC2154 # tmp, G: set by the script that sources this

# what one run and a merge are compared on: the report without its summary
NOSUM='del(.summary)'

# frames F: the frames of capture F (a test fails without a number)
frames() {
	_n=$("$G" -r "$1" --stats --json 2> /dev/null | jq .stats.frames)
	case $_n in
	'' | *[!0-9]*) echo "FAIL: $1: no frame count from gbpdump --stats --json" >&2 && echo 0 ;;
	*) echo "$_n" ;;
	esac
}

# parts F P1 P2 ...: F cut after frames P1, P2, ... into $tmp/part.N.pcap;
# prints the part files
parts() {
	f=$1
	shift
	n=$(frames "$f") lo=1 i=0
	rm -f "$tmp"/part.*.pcap
	for p in "$@" "$n"; do
		editcap -F pcap -r "$f" "$tmp/part.$i.pcap" "$lo-$p" 2> /dev/null ||
			err "editcap $f $lo-$p"
		echo "$tmp/part.$i.pcap"
		lo=$((p + 1)) i=$((i + 1))
	done
}

# same WHOLE MODE... -- PARTS: one run over WHOLE against --merge of the parts
same() {
	whole=$1
	shift
	mode=
	while [ "$1" != -- ]; do mode="$mode $1"; shift; done
	shift
	cases=$((cases + 1))
	k=0 sums=
	for p in "$@"; do
		# shellcheck disable=SC2086 # mode: several words on purpose
		"$G" -r "$p" $mode --json > "$tmp/s.$k.json"
		sums="$sums $tmp/s.$k.json" k=$((k + 1))
	done
	# shellcheck disable=SC2086
	{
		"$G" -r "$whole" $mode > "$tmp/one.txt" 2> /dev/null
		"$G" -r "$whole" $mode --json 2> /dev/null | jq -c "$NOSUM" > "$tmp/one.json"
		"$G" --merge $sums > "$tmp/m.txt"
		"$G" --merge --json $sums > "$tmp/m.full"
	}
	jq -c "$NOSUM" "$tmp/m.full" > "$tmp/m.json"
	a=$(jq -c '.summary.approximate | .cache + .budget' "$tmp/m.full")
	if [ "$a" != 0 ]; then
		approx=$((approx + 1))
		echo "$whole$mode: approximate at$SPLIT" >> "$tmp/approx.log"
		grep -q '^merge: approximate: ' "$tmp/m.txt" || err "$whole$mode$SPLIT: no approximate line"
		return
	fi
	grep -q '^merge: approximate' "$tmp/m.txt" && err "$whole$mode$SPLIT: approximate line"
	cmp -s "$tmp/one.txt" "$tmp/m.txt" ||
		{ err "$whole$mode split at$SPLIT: text differs"; diff "$tmp/one.txt" "$tmp/m.txt" | head -5; }
	cmp -s "$tmp/one.json" "$tmp/m.json" || err "$whole$mode split at$SPLIT: JSON differs"
	# merges compose: ((p0 p1) p2 ...) == (p0 p1 p2 ...)
	if [ $# -ge 3 ]; then
		"$G" --merge --json "$tmp/s.0.json" "$tmp/s.1.json" > "$tmp/m01.json"
		shift 2
		"$G" --merge --json "$tmp/m01.json" $(seq -f "$tmp/s.%g.json" 2 $((k - 1))) > "$tmp/mm.json"
		cmp -s "$tmp/mm.json" "$tmp/m.full" || err "$whole$mode split at$SPLIT: not associative"
	fi
}

