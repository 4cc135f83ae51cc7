#!/bin/bash
# matrix.sh - the conformance matrix: gbpprobe against every VTEP column in
# QEMU guests, written as docs/conformance.md's table and a JSON file.
#
# usage: matrix.sh [-c COLUMN]... [-p GBPPROBE] [-o OUTDIR] [--check] [--list]
#   -c        run only these columns (default: every column below)
#   -p        the gbpprobe to put in the guests (default: $VXGBP_GBPPROBE,
#             else build/bin/gbpprobe)
#   -o        where each column's run.sh output goes (default: a temporary
#             folder, deleted)
#   --check   write nothing: compare each cell of the columns run (observed
#             value and verdict) with docs/conformance-matrix.json; exit 1
#             on a difference
#   --list    print the columns and exit
# Without --check: the cells of the columns run replace theirs in
# docs/conformance-matrix.json (other columns are kept) and the table
# between the matrix markers of docs/conformance.md is written anew from it.
# Each cell is what the guest did ("dropped", "learned", "reply ID 512") and
# gbpprobe's verdict (pass/fail per the draft and RFC 7348, info, n/a).
# Exit: 0 done (or matching), 1 a column failed to run or a cell differs,
# 2 usage, 77 nothing could run (no QEMU, no gbpprobe).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cache=${VXGBP_CACHE:-/var/cache/vxgbp}
json=$repo/docs/conformance-matrix.json
doc=$repo/docs/conformance.md

# id | scenario | kernel | header | VTEP
columns=(
"linux-6.12|probe-linux|unpatched|Linux 6.12|Linux 6.12, gbp device (our config, unpatched)"
"linux-6.12-patched|probe-linux|patched|6.12 + series|Linux 6.12 + kernel-series (net + net-next), gbp device"
"debian-6.1|probe-linux|debian-6.1|Debian 6.1|Debian 12's kernel 6.1, gbp device"
"debian-6.12|probe-linux|debian-6.12|Debian 6.12|Debian 12's backported kernel 6.12, gbp device"
"ovs-3.1-debian-6.1|probe-ovs|debian-6.1|OVS kernel dp, Debian 6.1|Open vSwitch 3.1 kernel datapath (exts=gbp, NORMAL) on Debian 12's 6.1"
"ovs-3.1-patched|probe-ovs|patched|OVS kernel dp, 6.12 + series|Open vSwitch 3.1 kernel datapath (exts=gbp, NORMAL) on Linux 6.12 + kernel-series"
"ovs-3.1-netdev-debian-6.1|probe-ovs-netdev|debian-6.1|OVS userspace dp|Open vSwitch 3.1 userspace datapath (netdev, native tunnelling; exts=gbp refused, plain VXLAN ports) on Debian 12's 6.1"
"tc-debian-6.12|probe-tc|debian-6.12|tc tunnel_key, Debian 6.12|collect_md device (external gbp) + tc flower/tunnel_key vxlan_opts on Debian 12's 6.12"
)
usage() { sed -n '2,22p' "$0" >&2; exit 2; }
want=() probe=${VXGBP_GBPPROBE:-$repo/build/bin/gbpprobe} outdir="" check=0
while [ $# -gt 0 ]; do
	case "$1" in
	-c) want+=("$2"); shift 2 ;;
	-p) probe=$2; shift 2 ;;
	-o) outdir=$2; shift 2 ;;
	--check) check=1; shift ;;
	--list) printf '%s\n' "${columns[@]}" | awk -F'|' '{ printf "%-26s %-17s %-12s %s\n", $1, $2, $3, $5 }'; exit 0 ;;
	*) usage ;;
	esac
done
sel=()
for c in "${columns[@]}"; do
	id=${c%%|*}
	if [ ${#want[@]} -eq 0 ] || printf '%s\n' "${want[@]}" | grep -qx "$id"; then sel+=("$c"); fi
done
for w in ${want[@]+"${want[@]}"}; do
	printf '%s\n' "${columns[@]}" | grep -q "^$w|" || { echo "matrix: no column $w (--list)" >&2; exit 2; }
done
command -v qemu-system-x86_64 >/dev/null || { echo "skip: no qemu-system-x86_64"; exit 77; }
command -v jq >/dev/null || { echo "skip: no jq"; exit 77; }
[ -x "$probe" ] || { echo "skip: no gbpprobe at $probe (build the project or -p)"; exit 77; }
tmp=$(mktemp -d)
pdir_own=
trap 'rm -rf "$tmp" ${pdir_own:+"$pdir"}' EXIT
[ -n "$outdir" ] || outdir=$tmp/runs
mkdir -p "$outdir"
# the initramfs cache key covers VXGBP_INITRAMFS_EXTRA's text, not the
# binaries: gbpprobe goes under a path named after its content
sum=$(sha256sum "$probe" | cut -c1-16)
pdir=${TMPDIR:-/tmp}/vxgbp-gbpprobe-$sum
# removed at the end by the run that made it (a run beside it may use it)
mkdir "$pdir" 2>/dev/null && pdir_own=1
cp "$probe" "$pdir/gbpprobe" || exit 1

# cells.jq: gbpprobe's JSON report -> one cell per probe, the observed value
# from the report's fields (not its verdict), the verdict as gbpprobe gave it;
# but mark.flags-mapped, which gbpprobe cannot see: its cell is the mark the
# VTEP's guest read with nft ($mark: "VXGBP-OBS rx-mark SRC MARK"; $read:
# the scenario reads marks at all), pass when it is Linux's mapping of the
# header sent ($want), else fail on a Linux gbp device ($strict) and info
# elsewhere (no other VTEP promises a mark); and udp.zero-checksum-ipv6,
# judged in gbpprobe's second run, over the IPv6 underlay (probe6.json),
# where the scenario has one
cat >"$tmp/cells.jq" <<'JQ'
def g: (.reply_flags / 32768 | floor) % 2 == 1;
def a: (.reply_flags / 8 | floor) % 2 == 1;
def markcell: if $read != "yes" then {verdict: "n/a", observed: "mark not read"}
	elif $mark == "" then {verdict: "n/a", observed: "not received"}
	elif $mark == $want then {verdict: "pass", observed: "mark \($mark)"}
	else {verdict: (if $strict == "yes" then "fail" else "info" end), observed: "mark \($mark)"} end;
(.probes | map(select(.id == "gbp.group-mapped"))[0]) as $grp
| .probes[] | if .id == "mark.flags-mapped" then
	{probe: .id, note: "\(.note); want \($want)"} + markcell
  else {probe: .id, verdict: .verdict, note: .note, observed: (
	if .id == "gbp.group-mapped" then
		(if .replies == 0 then "dropped" elif g then "reply ID \(.reply_group)" else "reply without G" end)
	elif .id == "gbp.policy-applied-set" then
		(if $grp.replies == 0 then "dropped" elif ($grp | g) then (if ($grp | a) then "reply A=1" else "reply A=0" end) else "reply without G" end)
	elif .id == "udp.zero-checksum-ipv6" then
		(if (.note | startswith("IPv4 underlay")) then "no IPv6 underlay"
		 elif (.note | startswith("no baseline")) then "no reply over IPv6"
		 elif .replies == 0 then "dropped" else "accepted" end)
	elif .id == "ip.outer-fragments-reassembled" then
		(if .replies == 0 then "discarded" else "reassembled" end)
	elif (.id | startswith("mcast.")) then
		(if .replies == 0 then "no report seen" elif g and .reply_group != 0 then "report with ID \(.reply_group)"
		 else "reports without a group" end)
	elif .id == "learn.dont-learn-static" or .id == "learn.dont-learn-nexthop" then
		(if (.note | startswith("needs")) then "no pinned MAC" elif .replies + .flooded == 0 then "dropped"
		 elif .flooded == 0 then "moved (reply to the sender)" elif .replies == 0 then "kept (reply to the pin)"
		 else "reply flooded" end)
	elif (.id | endswith("-forwarded")) then
		(if .replies + .flooded == 0 then "not forwarded" elif g then
		 "forwarded A=\(if a then 1 else 0 end) ID \(.reply_group)" else "forwarded without G" end)
	elif (.id | startswith("learn.")) then
		(if .replies == 0 then "no reply" elif .flooded > 0 then "not learned (reply flooded)" else "learned (reply unicast)" end)
	else
		(if .replies == 0 then "dropped" else "accepted" end)
	end)} end
JQ

run_column() { # id scenario kernel header VTEP
	local id=$1 scen=$2 kern=$3 head=$4 label=$5 out=$outdir/$1 extra=$pdir/gbpprobe ovs t0 pkg
	local ldp=LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}
	if [ "${scen#probe-ovs}" != "$scen" ]; then
		ovs=$(sh "$repo/tests/check/ovs-fetch.sh" "$cache/ovs") || return 1
		extra="$extra $ovs"
		# ldd in mkinitramfs must find the unpacked libraries
		ldp=$(cat "$cache/ovs/ldpath")
	fi
	t0=$(date +%s)
	env "$ldp" VXGBP_CHECK_BIN="$(dirname "$probe")" VXGBP_INITRAMFS_EXTRA="$extra" \
		"$here/run.sh" -k "$kern" -o "$out" "$scen" >"$tmp/$id.log" 2>&1
	if [ ! -s "$out/probe.json" ] || ! grep -q "^VXGBP-HOST PASS" "$out/result.txt" ||
		[ "$(grep -c "^VXGBP-VERDICT PASS" "$out/result.txt")" != 2 ]; then
		echo "matrix: $id ($scen on $kern) did not run through:" >&2
		tail -20 "$tmp/$id.log" >&2
		return 1
	fi
	pkg=$(grep -aho "package=[^ ]*" "$out/console-h1.log" | head -1 | sed 's/^package=//; s/=/ /g')
	[ -n "$pkg" ] || pkg="linux-source-6.12 + qemu/vxgbp.config, $(sed -n 's/^kernel h1 \([^ ]*\).*/\1/p' "$out/result.txt")"
	ovsv=$(sed -n 's/^VXGBP-OBS ovs-version .*) //p' "$out/result.txt" | head -1)
	# the mark probe's endpoint: --inner-src (198.51.100.100) + its index + 1
	local mi msrc mark want mread=no strict=no
	mi=$(jq '[.probes[].id] | index("mark.flags-mapped")' "$out/probe.json")
	msrc=198.51.100.$((101 + mi))
	mark=$(sed -n "s/^VXGBP-OBS rx-mark $msrc //p" "$out/result.txt" | head -1)
	want=$(printf '0x%08x' $(($(jq .group "$out/probe.json") | 0x00480000)))
	grep -q "^VXGBP-OBS rx-mark-read [^ ]* 0$" "$out/result.txt" && mread=yes
	local rep=$out/probe.json
	if [ -s "$out/probe6.json" ]; then
		rep=$tmp/$id-probe.json
		jq --slurpfile v6 "$out/probe6.json" '.probes |= map(if .id == "udp.zero-checksum-ipv6"
			then ($v6[0].probes[] | select(.id == "udp.zero-checksum-ipv6")) else . end)' \
			"$out/probe.json" >"$rep"
	fi
	[ "$scen" = probe-linux ] && strict=yes
	jq --arg id "$id" --arg scen "$scen" --arg kern "$kern" --arg head "$head" --arg vtep "$label" --arg pkg "$pkg" \
		--arg ovs "$ovsv" --argjson secs "$(($(date +%s) - t0))" \
		'{id: $id, header: $head, vtep: $vtep, scenario: $scen, kernel: $kern, kernel_package: $pkg,
		  ovs: (if $ovs == "" then null else $ovs end), seconds: $secs, cells: [.[]]}' \
		<(jq --arg mark "$mark" --arg want "$want" --arg read "$mread" --arg strict "$strict" \
			-f "$tmp/cells.jq" "$rep" | jq -s .) >"$tmp/col-$id.json"
	echo "matrix: $id: $scen on $kern, $(($(date +%s) - t0)) s" >&2
}

T0=$(date +%s)
rc=0
for c in "${sel[@]}"; do
	IFS='|' read -r id scen kern head label <<<"$c"
	run_column "$id" "$scen" "$kern" "$head" "$label" || rc=1
done
ran=$(ls "$tmp"/col-*.json 2>/dev/null)
[ -n "$ran" ] || { echo "matrix: no column ran" >&2; exit 1; }
jq -s . $ran >"$tmp/new.json"

if [ $check = 1 ]; then
	[ -f "$json" ] || { echo "matrix: no $json (run qemu/matrix.sh)" >&2; exit 1; }
	cells() { jq -r --argjson ids "$(jq '[.[].id]' "$tmp/new.json")" \
		'(.columns? // .)[] | select(.id as $i | $ids | index($i)) | .id as $c
		 | .cells[] | "\($c)\t\(.probe)\t\(.observed)\t\(.verdict)"' "$1"; }
	# sorted: the columns ran in the order above, the files come back by name
	cells "$json" | sort >"$tmp/want"; cells "$tmp/new.json" | sort >"$tmp/got"
	if ! diff -u "$tmp/want" "$tmp/got"; then
		echo "matrix: the guests no longer do what $json says (- stored, + now)"
		exit 1
	fi
	echo "matrix: $(wc -l <"$tmp/got") cells of $(jq length "$tmp/new.json") columns as stored, $(($(date +%s) - T0)) s"
	exit $rc
fi

# merge: the columns run replace theirs, the others stay, in the order above
order=$(printf '%s\n' "${columns[@]}" | cut -d'|' -f1 | jq -R . | jq -s .)
old='[]'; [ -f "$json" ] && old=$(jq '.columns' "$json")
jq -n --argjson old "$old" --slurpfile new "$tmp/new.json" --argjson order "$order" \
	--argjson secs "$(($(date +%s) - T0))" '
	($new[0] | map(.id)) as $ran
	| {generated_by: "qemu/matrix.sh",
	   columns: ([$old[] | select(.id as $i | $ran | index($i) | not)] + $new[0]
	             | sort_by(.id as $i | $order | index($i)))}' >"$tmp/merged.json"
mv "$tmp/merged.json" "$json"

# the table: one row a probe, one column a VTEP
{
	echo "<!-- matrix:begin (generated by qemu/matrix.sh from docs/conformance-matrix.json: do not edit) -->"
	jq -r '
	  def cell: (if .verdict == "fail" then "**fail**" else .verdict end) + ": " + .observed;
	  .columns as $c
	  | ("| probe | " + ([$c[].header] | join(" | ")) + " |"),
	    ("|---|" + ([$c[] | "---"] | join("|")) + "|"),
	    ($c[0].cells | map(.probe))[] as $p
	    | "| `\($p)` | " + ([$c[] | (.cells[] | select(.probe == $p) | cell)] | join(" | ")) + " |"' "$json"
	echo
	echo "The columns:"
	echo
	jq -r '.columns[] | "* \(.header): \(.vtep); `\(.kernel_package)`\(if .ovs then ", Open vSwitch \(.ovs)" else "" end) (`qemu/run.sh -k \(.kernel) \(.scenario)`)"' "$json"
	echo "<!-- matrix:end -->"
} >"$tmp/table.md"
awk -v tf="$tmp/table.md" '
	/^<!-- matrix:begin/ { while ((getline l < tf) > 0) print l; skip = 1; next }
	/^<!-- matrix:end -->/ { skip = 0; next }
	!skip' "$doc" >"$tmp/doc.md"
grep -q "^<!-- matrix:begin" "$doc" || { echo "matrix: no matrix markers in $doc" >&2; exit 1; }
cp "$tmp/doc.md" "$doc"
echo "matrix: $(jq '.columns | length' "$json") columns in $json and $doc; this run $(($(date +%s) - T0)) s"
exit $rc
