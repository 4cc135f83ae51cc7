#!/bin/bash
# run.sh - boot the vxgbp test guests for one scenario and judge it.
#
# usage: run.sh [-k KERNEL] [-K hN=STAGE]... [-o OUTDIR] [-a auto|kvm|tcg] [-n GUESTS] SCENARIO
#   -k  the kernel of every guest: a stage of the kernel build (00-base,
#       01-..., a prefix such as 03, "patched" = last, "unpatched" = 00-base),
#       debian-6.1 or debian-6.12 (Debian's binary kernel, qemu/debian-kernel.sh:
#       fixes none, stage 0, its modules loaded by /init) or a bzImage path;
#       default: patched.  "h1=A,h2=B" gives each guest its own kernel
#       (mixed deployments); -K h2=B does the same for one.
#   -o  where console logs, wire-h<N>.pcap and result.txt go
#       (default: $VXGBP_CACHE/runs/SCENARIO-STAGE, or SCENARIO-A+B)
#   -a  accelerator; auto probes KVM with a real tiny boot and falls back to TCG
#   -n  number of guests (default: the "# guests: N" line of the scenario, else 2)
# Each guest learns the fixes its kernel carries (ids of qemu/fixes, from
# $kdir/stage-patches, or the OLD column for kernels built without it;
# $VXGBP_KDIR picks another kernel folder) as vxgbp.fixes=a,b,c ("none"); a bzImage path gets
# $VXGBP_FIXES (default: every id).  Guests are joined only by QEMU dgram
# netdevs on 127.0.0.1; every guest's netdev has a filter-dump
# (wire-h<N>.pcap).  A scenario may ship scenarios/SCENARIO.host, run on
# the host during the boot and afterwards with OUT, KDIR, PORT_H<N>,
# FIXES (h1's), FIXES_H<N>, STAGE_NAME (h1's), STAGE_NAME_H<N> set (it can
# inject frames while the guests run by waiting for "VXGBP-READY" in
# $OUT/console-h<N>.log).
# Exit 0 = PASS.  Prints its own timing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${VXGBP_CACHE:-/var/cache/vxgbp}
. "$here/guest/host-lib.sh"
kernel=patched outdir="" accel=${VXGBP_ACCEL:-auto} nguests=""
declare -A kspec=()
usage() { sed -n '2,26p' "$0" >&2; exit 2; }
while getopts k:K:o:a:n: opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	K) case "$OPTARG" in h[0-9]=*) kspec[${OPTARG%%=*}]=${OPTARG#*=} ;; *) usage ;; esac ;;
	o) outdir=$OPTARG ;; a) accel=$OPTARG ;; n) nguests=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
scen=$1
[ -f "$here/scenarios/$scen.sh" ] || { echo "run: no scenario $scen" >&2; exit 2; }
T0=$(date +%s.%N)
elapsed() { awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
[ -n "$nguests" ] || nguests=$(sed -n 's/^# guests: *\([0-9]\).*/\1/p' "$here/scenarios/$scen.sh")
[ -n "$nguests" ] || nguests=2

# --- kernels ------------------------------------------------------------------
# -k h1=A,h2=B or -k A; -K hN=X overrides
default_k=$kernel
case "$kernel" in
h[0-9]=*)
	default_k=patched
	IFS=, read -ra parts <<<"$kernel"
	for p in "${parts[@]}"; do
		case "$p" in h[0-9]=*) [ -n "${kspec[${p%%=*}]:-}" ] || kspec[${p%%=*}]=${p#*=} ;; *) usage ;; esac
	done ;;
esac
# VXGBP_KDIR: another kernel folder (e.g. an older build of the series)
kdir=${VXGBP_KDIR:-$("$here/build-kernel.sh" --print-dir)}
all_ids=$(awk '!/^#/ && NF { printf "%s%s", s, $1; s = "," }' "$here/fixes")
declare -A bz=() sname=() sfix=() kmods=()
for i in $(seq 1 "$nguests"); do
	k=${kspec[h$i]:-$default_k}
	if [ -f "$k" ]; then
		bz[h$i]=$k sname[h$i]=custom sfix[h$i]=${VXGBP_FIXES:-$all_ids}
		continue
	fi
	case "$k" in
	debian-*) # Debian's binary kernel: none of our fixes, its own modules
		d=$("$here/debian-kernel.sh" "$k") || { echo "run: no Debian kernel $k" >&2; exit 2; }
		bz[h$i]=$d/vmlinuz sname[h$i]=$k sfix[h$i]=none kmods[h$i]=$d
		continue ;;
	esac
	[ -f "$kdir/done" ] || kdir=$("$here/build-kernel.sh" | tail -1) || { echo "run: kernel build failed" >&2; exit 2; }
	case "$k" in
	patched) s=$(tail -1 "$kdir/stages") ;;
	unpatched) s=00-base ;;
	*) s=$(grep -m1 "^$k" "$kdir/stages" || true) ;;
	esac
	[ -n "$s" ] || { echo "run: no kernel stage $k in $kdir/stages" >&2; exit 2; }
	bz[h$i]=$kdir/bzImage-$s sname[h$i]=$s sfix[h$i]=$(fixes_of "$kdir" "$s")
done
# the stage number scenarios compare with (0: none of our patches)
stage_of() {
	case "$1" in custom) echo "${VXGBP_STAGE:-99}" ;; debian-*) echo 0 ;; *) echo $((10#${1%%-*})) ;; esac
}
stage_name=${sname[h1]}
stage_num=$(stage_of "$stage_name")
label=$stage_name
for i in $(seq 2 "$nguests"); do [ "${sname[h$i]}" = "$stage_name" ] || label=$label+${sname[h$i]}; done
for i in $(seq 1 "$nguests"); do export "FIXES_H$i=${sfix[h$i]}" "STAGE_NAME_H$i=${sname[h$i]}"; done
export FIXES=${sfix[h1]}
[ -n "$outdir" ] || outdir=$cache/runs/$scen-$label
rm -rf "$outdir"; mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)

# --- initramfs (cached by content of the inputs) ---------------------------
extra=()
[ -d "$kdir/selftests" ] && extra+=(-f "$kdir/selftests:/selftests/net")
[ -f "$here/scenarios/$scen.progs" ] && extra+=(-x "$here/scenarios/$scen.progs")
rdkey=$( { cat "$here/mkinitramfs.sh" "$here/guest/"* "$here/scenarios/"*.* 2>/dev/null
	[ -d "$kdir/selftests" ] && find "$kdir/selftests" -type f | sort | xargs cat
	cat "$here/fixes"
	echo "${VXGBP_INITRAMFS_EXTRA:-} ${extra[*]:-}"; dpkg-query -W busybox-static iproute2 tcpdump nftables iptables bash dash 2>/dev/null
	} | sha256sum | cut -c1-16)
rd=$cache/initramfs/$rdkey.cpio
if [ ! -f "$rd" ]; then
	mkdir -p "$cache/initramfs"
	"$here/mkinitramfs.sh" "$rd" ${extra[@]+"${extra[@]}"}
fi
# a Debian kernel's guest: the same image with its modules appended (the
# kernel unpacks concatenated cpio archives in turn)
declare -A rds=()
for i in $(seq 1 "$nguests"); do
	rds[h$i]=$rd
	[ -n "${kmods[h$i]:-}" ] || continue
	r=$cache/initramfs/$rdkey-${kmods[h$i]##*/}.cpio
	[ -f "$r" ] || { cat "$rd" "${kmods[h$i]}/modules.cpio" >"$r.tmp.$$" && mv "$r.tmp.$$" "$r"; }
	rds[h$i]=$r
done

# --- accelerator: probe KVM with a real boot, else TCG -----------------------
khz=$(awk -F: '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
[ -n "$khz" ] || khz=2000000
qemu_base=(qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot
	-m "${VXGBP_GUEST_MEM:-256}" -smp 1)
# no_timer_check: under TCG on a loaded host the IO-APIC timer check can
# miss its ticks and panic the boot ("IO-APIC + timer doesn't work!", seen
# at load 15); the guests need no such check
cmdline_base="console=ttyS0 quiet panic=-1 tsc_early_khz=$khz no_timer_check"
probe_kvm() {
	local f=$cache/kvm-probe.$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo x)
	if [ -f "$f" ]; then cat "$f"; return; fi
	local res=tcg log
	log=$(mktemp)
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		timeout 20 "${qemu_base[@]}" -kernel "${bz[h1]}" -initrd "${rds[h1]}" -accel kvm -cpu host -serial "file:$log" \
			-append "$cmdline_base vxgbp.scenario=probe" >/dev/null 2>&1 || true
		grep -q "VXGBP-EXIT" "$log" && res=kvm
	fi
	rm -f "$log"
	echo "$res" >"$f"
	echo "$res"
}
case "$accel" in
auto) accel=$(probe_kvm); echo "run: accelerator $accel (KVM probe: a real boot with a 20 s timeout)" ;;
kvm | tcg) ;;
*) echo "run: bad accelerator $accel" >&2; exit 2 ;;
esac
if [ "$accel" = kvm ]; then accel_args=(-accel kvm -cpu host); else accel_args=(-accel tcg -cpu max); fi

# --- guests -----------------------------------------------------------------
# two free UDP ports on 127.0.0.1
base=$((20000 + ($$ * 7) % 30000))
while ss -Hulnp 2>/dev/null | grep -qE "127.0.0.1:($base|$((base + 1))|$((base + 2)))\b"; do base=$((base + 3)); done
pids=()
# on any exit, stop what this run started (timeout puts QEMU in its own group)
trap 'for p in ${pids[@]+"${pids[@]}"}; do kill "$p" 2>/dev/null || true; done' EXIT
trap 'exit 130' INT TERM
for i in $(seq 1 "$nguests"); do
	lp=$((base + i))
	if [ "$nguests" -eq 1 ]; then rp=$base; else rp=$((base + (i % 2) + 1)); fi
	export "PORT_H$i=$lp"
	st=$(stage_of "${sname[h$i]}")
	peer=none; [ "$nguests" -eq 2 ] && peer=${sfix[h$((3 - i))]}
	timeout "${VXGBP_GUEST_TIMEOUT:-300}" "${qemu_base[@]}" -kernel "${bz[h$i]}" -initrd "${rds[h$i]}" "${accel_args[@]}" \
		-append "$cmdline_base vxgbp.stage=$st vxgbp.fixes=${sfix[h$i]} vxgbp.peer_fixes=$peer vxgbp.scenario=$scen vxgbp.role=h$i" \
		-serial "file:$outdir/console-h$i.log" \
		-netdev "dgram,id=n0,local.type=inet,local.host=127.0.0.1,local.port=$lp,remote.type=inet,remote.host=127.0.0.1,remote.port=$rp" \
		-device "virtio-net-pci,netdev=n0,mac=52:54:00:00:00:0$i" \
		-object "filter-dump,id=d0,netdev=n0,file=$outdir/wire-h$i.pcap" \
		>"$outdir/qemu-h$i.log" 2>&1 &
	pids+=($!)
done
hostrc=0
if [ -x "$here/scenarios/$scen.host" ]; then
	OUT=$outdir STAGE_NUM=$stage_num STAGE_NAME=$stage_name KDIR=$kdir ROLE=during NGUESTS=$nguests \
		"$here/scenarios/$scen.host" during >"$outdir/host-during.log" 2>&1 || hostrc=$?
fi
qrc=0
for p in "${pids[@]}"; do wait "$p" || qrc=$?; done
t_guests=$(elapsed)

# --- verdict ----------------------------------------------------------------
{
	echo "scenario $scen kernel $label accel $accel guests $nguests"
	for i in $(seq 1 "$nguests"); do echo "kernel h$i ${sname[h$i]} (${bz[h$i]}) fixes ${sfix[h$i]}"; done
	grep -h "^VXGBP-" "$outdir"/console-h*.log | sed 's/\r$//' || true
} >"$outdir/result.txt"
pass=1
for i in $(seq 1 "$nguests"); do
	c=$outdir/console-h$i.log
	if ! grep -q "^VXGBP-VERDICT PASS" "$c"; then pass=0; fi
	grep -q "^VXGBP-EXIT" "$c" || {
		echo "run: h$i did not finish (qemu rc $qrc)"
		grep -m 3 -E 'Kernel panic|BUG:|WARNING:|Oops|not syncing' "$c"
		tail -5 "$c"; pass=0
	}
done
[ "$hostrc" = 0 ] || { echo "run: host-side injection failed (rc $hostrc)"; cat "$outdir/host-during.log"; pass=0; }
if [ -x "$here/scenarios/$scen.host" ]; then
	if OUT=$outdir STAGE_NUM=$stage_num STAGE_NAME=$stage_name KDIR=$kdir ROLE=after NGUESTS=$nguests \
		"$here/scenarios/$scen.host" after >"$outdir/host.log" 2>&1; then
		grep "^VXGBP-" "$outdir/host.log" >>"$outdir/result.txt" || true
		echo "VXGBP-HOST PASS" >>"$outdir/result.txt"
	else
		grep "^VXGBP-" "$outdir/host.log" >>"$outdir/result.txt" || true
		echo "VXGBP-HOST FAIL (see $outdir/host.log)" >>"$outdir/result.txt"
		pass=0
	fi
	sed 's/^/  host: /' "$outdir/host.log"
fi
grep -h "^VXGBP-CHECK .* FAIL\|^VXGBP-VERDICT" "$outdir/result.txt" | sed 's/^/  /' || true
boot=$(grep -ho "VXGBP-BOOTED.*uptime=[0-9.]*" "$outdir"/console-h*.log | sed 's/.*uptime=//' | sort -n | tail -1)
v=FAIL; [ $pass = 1 ] && v=PASS
echo "run: $scen on $label [$accel]: guests ${t_guests}s (boot to /init ${boot:-?}s), total $(elapsed)s: $v"
echo "timing guests=${t_guests} boot=${boot:-?} total=$(elapsed) accel=$accel" >>"$outdir/result.txt"
[ $pass = 1 ]
