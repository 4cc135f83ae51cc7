#!/bin/sh
# groups.sh - group names: the UAT (vxgbp_groups) rejects bad IDs and names,
# and names from the UAT and from a gbpdump-style group file show up.
#   groups.sh TSHARK_SH PLUGIN CAPTURE GROUPS_FILE
# CAPTURE's first frame must carry Group Policy ID 0x100.
set -u
ts=$1 plugin=$2 cap=$3 gfile=$4
fail=0
expect_reject() { # $1: UAT record, $2: part of the error message
	if "$ts" "$plugin" -r - -c 1 -o "uat:vxgbp_groups:$1" < "$cap" > /dev/null 2> "$tmp/err"; then
		echo "FAIL: UAT record $1 accepted"; fail=1
	elif ! grep -q "$2" "$tmp/err"; then
		echo "FAIL: UAT record $1: no \"$2\" in:"; cat "$tmp/err"; fail=1
	else
		echo "ok: $1 rejected"
	fi
}
expect_name() { # $1: name in the Info column of frame 1, then tshark options
	want=$1
	shift
	got=$("$ts" "$plugin" -r - -c 1 -T fields -e vxgbp.group_name "$@" < "$cap")
	if [ "$got" != "$want" ]; then
		echo "FAIL: $*: group name \"$got\", want \"$want\""; fail=1
	else
		echo "ok: $* -> $want"
	fi
}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
expect_reject '"65536","x"' "0 to 65535"
expect_reject '"-1","x"' "0 to 65535"
expect_reject '"web","x"' "0 to 65535"
expect_reject '"256","two words"' "one word"
expect_reject '"256",""' "empty"
expect_reject '"256","abcdefghijklmnopqrstuvwxyz0123456"' "one word"
expect_name "client" -o 'uat:vxgbp_groups:"256","client"'
expect_name "client" -o 'uat:vxgbp_groups:"0x100","client"'
expect_name "" -o 'uat:vxgbp_groups:"257","other"'
# The file is read by the user tshark runs as: give it a copy anyone can read.
cp "$gfile" "$tmp/groups.txt" && chmod a+rx "$tmp" && chmod a+r "$tmp/groups.txt"
name=$(sed -e 's/#.*//' "$gfile" | awk '$1 == "0x100" || $1 == "256" { print $2 }')
expect_name "$name" -o "vxgbp.groups_file:$tmp/groups.txt"
expect_name "uat-wins" -o "vxgbp.groups_file:$tmp/groups.txt" -o 'uat:vxgbp_groups:"256","uat-wins"'
# A bad line is reported (file:line:column, on standard error in tshark, a
# dialog in Wireshark) and the good lines are still used; no exit.
printf '# names\n0x100 client\n0x1ffff too-big\n512 two words\n' > "$tmp/bad.txt"
chmod a+r "$tmp/bad.txt"
got=$("$ts" "$plugin" -r - -c 1 -T fields -e vxgbp.group_name -o "vxgbp.groups_file:$tmp/bad.txt" \
	< "$cap" 2> "$tmp/err")
rc=$?
for want in "$tmp/bad.txt:3:1: " "$tmp/bad.txt:4:9: "; do
	if ! grep -qF "$want" "$tmp/err"; then
		echo "FAIL: bad group file: no \"$want\" in:"; cat "$tmp/err"; fail=1
	fi
done
if [ "$rc" -ne 0 ] || [ "$got" != client ]; then
	echo "FAIL: bad group file: exit $rc, name \"$got\" (want 0, client)"; fail=1
else
	echo "ok: bad group file reported, its good lines used"
fi
"$ts" "$plugin" -r - -c 1 -o "vxgbp.groups_file:$tmp/missing.txt" < "$cap" > /dev/null 2> "$tmp/err"
if ! grep -q "vxgbp.groups_file.*missing.txt" "$tmp/err"; then
	echo "FAIL: missing group file not reported:"; cat "$tmp/err"; fail=1
else
	echo "ok: missing group file reported"
fi
exit $fail
