#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The bash completion of gbpdump, gbpgen and gbpprobe (completion/vxgbp.bash)
# in a non-interactive bash: each case sets COMP_WORDS/COMP_CWORD/COMP_LINE/
# COMP_POINT as bash does for a command line, calls the completion function
# and compares COMPREPLY with what it must be.  The profile names the script
# lists are compared with the ones gbpdump accepts.
#
#   completion.sh SCRIPT BINDIR FIXTURES
set -u
script=$1 bin=$2 fixtures=$3
bc=/usr/share/bash-completion/bash_completion
[ -r "$bc" ] || { echo "completion: $bc missing (scripts/install-deps man)"; exit 1; }
# shellcheck disable=SC1090
. "$bc"
# shellcheck disable=SC1090
. "$script"
fails=0

# Split a command line into COMP_WORDS the way bash does: at blanks, and
# each '=' or ':' (COMP_WORDBREAKS) a word of its own.
set_words() {
	local line=$1 w rest
	COMP_WORDS=()
	for w in $line; do
		while [[ $w =~ ^([^=:]*)([=:])(.*)$ ]]; do
			[[ ${BASH_REMATCH[1]} ]] && COMP_WORDS+=("${BASH_REMATCH[1]}")
			COMP_WORDS+=("${BASH_REMATCH[2]}")
			w=${BASH_REMATCH[3]}
		done
		[[ $w ]] && COMP_WORDS+=("$w")
	done
	rest=${line##*[ =:]}
	[[ $line == *[\ =:] || -z $line ]] && COMP_WORDS+=("")
	: "$rest"
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
}

# complete FUNC LINE: COMPREPLY, sorted, one a line, in $got
complete_line() {
	local fn=$1 line=$2
	set_words "$line"
	COMPREPLY=()
	"$fn" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort)
}

# expect NAME FUNC LINE WORD...: COMPREPLY is exactly WORD...
expect() {
	local name=$1 fn=$2 line=$3 want
	shift 3
	complete_line "$fn" "$line"
	want=$(printf '%s\n' "$@" | sed '/^$/d' | sort)
	if [ "$got" = "$want" ]; then
		echo "ok   $name"
	else
		echo "FAIL $name: '$line' completes to [$(echo $got)], want [$(echo $want)]"
		fails=$((fails + 1))
	fi
}

# expect_has NAME FUNC LINE WORD...: COMPREPLY holds each WORD
expect_has() {
	local name=$1 fn=$2 line=$3 w miss=""
	shift 3
	complete_line "$fn" "$line"
	for w in "$@"; do
		printf '%s\n' "$got" | grep -qxF -- "$w" || miss="$miss $w"
	done
	if [ -z "$miss" ]; then
		echo "ok   $name"
	else
		echo "FAIL $name: '$line' completes to [$(echo $got)], missing$miss"
		fails=$((fails + 1))
	fi
}

d=$bin/gbpdump g=$bin/gbpgen p=$bin/gbpprobe
expect profile _gbpdump "$d --check --profile " strict linux vpp offload
expect profile-prefix _gbpdump "$d --check --profile v" vpp
expect profile-equals _gbpdump "$d --profile=o" offload
expect json _gbpdump "$d --js" --json
expect_has options _gbpdump "$d -" -r -i -w -c -v --check --profile --groups --help --version
expect none _gbpdump "$d --no-such-option-zz"
expect_has iface _gbpdump "$d -i " lo
expect iface-prefix _gbpdump "$d -i l" $(cd /sys/class/net && ls -d l* 2>/dev/null)
expect number _gbpdump "$d -c "

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vxgbp-completion.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/fixdir"
touch "$tmp/fixture.pcap" "$tmp/fixture.pcapng.gz" "$tmp/fixture.pcap.zst" \
      "$tmp/fixnote.txt" "$tmp/other.pcap"
cd "$tmp" || exit 2
expect read-captures _gbpdump "$d -r fix" fixdir fixture.pcap fixture.pcap.zst fixture.pcapng.gz
expect read-any-file _gbpdump "$d -r fixn" fixnote.txt
expect write-captures _gbpdump "$d -r other.pcap -w fixture.pcap" fixture.pcap fixture.pcap.zst \
	fixture.pcapng.gz
expect groups-file _gbpdump "$d --groups fixn" fixnote.txt
# options that take a FILE by gbpdump --help complete files without a line
# here (--policy, --report, ... as they arrive)
for o in $("$d" --help | sed -n 's/^ *\(--[a-z-]*\) FILE .*/\1/p'); do
	expect "file-of-$o" _gbpdump "$d $o fixn" fixnote.txt
done

expect gbpgen-key _gbpgen "$g -w out.pcap gb" gbp=
expect_has gbpgen-keys _gbpgen "$g -w out.pcap " vni= gbp= d= a= flags= rsvd= mark= wrap=
expect gbpgen-value _gbpgen "$g -w out.pcap csum=ze" csum=zero
expect gbpgen-option _gbpgen "$g --pc" --pcapng
expect gbpgen-link _gbpgen "$g --link s" sll sll2
expect gbpgen-specfile _gbpgen "$g -w out.pcap -f fixn" fixnote.txt

expect gbpprobe-option _gbpprobe "$p --flo" --flood-addr
expect_has gbpprobe-options _gbpprobe "$p --" --local --target --target-mac --vni --group \
	--timeout --json --force --junit --sarif --static-mac --nexthop-mac --fwd-vni
expect gbpprobe-junit-file _gbpprobe "$p --junit fixn" fixnote.txt
expect gbpprobe-sarif-file _gbpprobe "$p --sarif fixn" fixnote.txt
expect gbpprobe-recv-file _gbpprobe "$p -W fixture.pcap" fixture.pcap fixture.pcap.zst \
	fixture.pcapng.gz
if ip -4 -o addr show 2>/dev/null | grep -q ' 127\.0\.0\.1/'; then
	expect gbpprobe-local _gbpprobe "$p --local 127.0.0." 127.0.0.1
else
	echo "skip gbpprobe-local: no ip(8) or no 127.0.0.1 here"
fi
cd / || exit 2

# The profile names the script completes are the ones gbpdump accepts: its
# error for an unknown one lists them (libvxgbp's table), and each is accepted.
msg=$("$d" --check --profile no-such-profile -r "$fixtures/basic-gbp.pcap" 2>&1 >/dev/null)
listed=$(printf '%s\n' "$msg" | sed -n 's/.*unknown profile.*(\(.*\)).*/\1/p' | tr -d ' ' |
	 tr ',' '\n' | sort)
complete_line _gbpdump "$d --check --profile "
mine=$got
if [ -n "$listed" ] && [ "$listed" = "$mine" ]; then
	echo "ok   profiles-match-gbpdump"
else
	echo "FAIL profiles-match-gbpdump: gbpdump lists [$(echo $listed)], the script [$(echo $mine)]"
	fails=$((fails + 1))
fi
for prof in $mine; do
	"$d" --check --profile "$prof" -r "$fixtures/basic-gbp.pcap" >/dev/null 2>&1
	rc=$?
	if [ "$rc" -eq 2 ]; then
		echo "FAIL profile-$prof: gbpdump --profile $prof is a usage error"
		fails=$((fails + 1))
	fi
done
# --help and --version, which the script offers for every program
for prog in "$d" "$g" "$p"; do
	for o in --help --version; do
		if ! "$prog" "$o" >/dev/null 2>&1; then
			echo "FAIL ${prog##*/} $o does not exit 0"
			fails=$((fails + 1))
		fi
	done
done
echo "completion: $fails failed"
[ "$fails" -eq 0 ]
