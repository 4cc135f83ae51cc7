#!/bin/sh
# rules.sh GBPDUMP RULES_C FIXTURES RULES
# Every rule of libvxgbp (libvxgbp/src/rules.c) has a capture that triggers
# it and one that does not (the RULES list).  On the triggering capture
# gbpdump --check --json reports the rule at the library's level and the
# exit status follows the worst level found (4 MUST, 3 SHOULD, 0 INFO only);
# on the other the rule is absent.  gbpdump runs in FIXTURES; words after
# the two captures are more options for both runs (policy.*: --policy).
gbpdump=$1 rules_c=$2 fix=$3 list=$4
fail=0
tmp=${TMPDIR:-/tmp}/check-rules.$$
trap 'rm -f "$tmp"' EXIT
grep -o '{ "[a-z0-9]*\.[a-z0-9-]*", VXGBP_LEVEL_[A-Z]*' "$rules_c" |
	sed 's/{ "\(.*\)", VXGBP_LEVEL_\(.*\)/\1 \2/' >"$tmp.ids"
[ -s "$tmp.ids" ] || { echo "rules.sh: no rule ids found in $rules_c" >&2; exit 1; }
while read -r id level; do
	line=$(grep "^$id[[:space:]]" "$list")
	if [ -z "$line" ]; then
		echo "rules.sh: $id has no fixtures in $list" >&2
		fail=1
		continue
	fi
	set -- $line
	yes=$2 no=$3
	shift 3
	(cd "$fix" && "$gbpdump" -r "$yes" --check --json "$@") >"$tmp"
	rc=$?
	got=$(jq -r --arg id "$id" '[.check.findings[] | select(.id == $id) | .level] | join(",")' "$tmp")
	if [ "$got" != "$level" ]; then
		echo "rules.sh: $yes: $id reported at '$got', expected $level" >&2
		fail=1
	fi
	worst=$(jq -r '[.check.findings[].level] | if index("MUST") then 4 elif index("SHOULD") then 3 else 0 end' "$tmp")
	if [ "$rc" != "$worst" ] || [ "$(jq -r .check.exit "$tmp")" != "$rc" ]; then
		echo "rules.sh: $yes: exit status $rc, findings say $worst" >&2
		fail=1
	fi
	(cd "$fix" && "$gbpdump" -r "$no" --check --json "$@") >"$tmp"
	if jq -e --arg id "$id" '.check.findings | any(.id == $id)' "$tmp" >/dev/null; then
		echo "rules.sh: $no: $id reported, expected absent" >&2
		fail=1
	fi
done <"$tmp.ids"
rm -f "$tmp.ids"
[ $fail = 0 ] && echo "rules.sh: every rule triggered and absent as expected"
exit $fail
