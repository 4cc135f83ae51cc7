#!/bin/sh
# report.golden: gbpdump --report pages byte for byte (tests/report/CASES:
# name, then the options), and each page written twice is the same file.
# golden.sh GBPDUMP GBPGEN SOURCE_DIR WORK_DIR.  On a mismatch the new page
# is WORK_DIR/NEW/NAME.html and the difference WORK_DIR/NAME.diff.
set -eu
# shellcheck disable=SC2034 # gbpgen: used by setup.sh
gbpdump=$1 gbpgen=$2 src=$3 work=$4
exp=$src/tests/report/expected
# shellcheck disable=SC1091 # setup.sh, sourced: it uses $gbpgen
. "$src/tests/report/setup.sh"
fail=0
while read -r name opts; do
	case $name in ''|'#'*) continue ;; esac
	for k in 1 2; do
		# shellcheck disable=SC2086 # opts are words
		if ! "$gbpdump" $opts --report "$name.$k.html" > "$name.out" 2> "$name.err"; then
			echo "report.golden $name: gbpdump failed:"; cat "$name.err"; fail=1
			continue 2
		fi
	done
	if [ -s "$name.out" ] || [ -s "$name.err" ]; then
		echo "report.golden $name: --report alone printed something:"
		cat "$name.out" "$name.err"; fail=1
	fi
	if ! cmp -s "$name.1.html" "$name.2.html"; then
		echo "report.golden $name: two runs gave different pages"; fail=1
	fi
	if [ -f "$exp/$name.html" ] && cmp -s "$exp/$name.html" "$name.1.html"; then
		continue
	fi
	mkdir -p NEW
	cp "$name.1.html" "NEW/$name.html"
	if [ -f "$exp/$name.html" ]; then
		diff -u "$exp/$name.html" "$name.1.html" > "$name.diff" || true
		echo "report.golden $name: differs from expected/$name.html ($work/$name.diff):"
		head -30 "$name.diff"
	else
		echo "report.golden $name: no expected/$name.html (new page: $work/NEW/$name.html)"
	fi
	fail=1
done < "$src/tests/report/CASES"
exit $fail
