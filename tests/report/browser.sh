#!/bin/sh
# report.browser: gbpdump --report pages in headless Chromium (browser.py:
# groups and matrix in the rendered DOM, no console message, nothing
# requested), a screenshot of the demo page with its policy
# (WORK_DIR/report.png, the one in docs/screenshots/), and the same checks
# failing on pages broken on purpose.
# browser.sh GBPDUMP GBPGEN SOURCE_DIR WORK_DIR
set -eu
# shellcheck disable=SC2034 # gbpgen: used by setup.sh
gbpdump=$1 gbpgen=$2 src=$3 work=$4
# Debian's python3 (python3-selenium), not another one first in PATH
py=/usr/bin/python3
b=$src/tests/report/browser.py
# shellcheck disable=SC1091 # setup.sh, sourced: it uses $gbpgen
. "$src/tests/report/setup.sh"
for x in /usr/bin/chromium /usr/bin/chromedriver; do
	[ -x $x ] || { echo "report.browser: $x missing (scripts/deps/report.list)"; exit 1; }
done
fail=0
page() { # NAME OPTIONS...: NAME.html and NAME.json (--stats --json)
	name=$1
	shift
	"$gbpdump" "$@" --report "$name.html"
	"$gbpdump" "$@" --stats --json > "$name.json"
}
page demo-policy -r demo.pcap --groups demo-groups.txt --policy demo.policy
page basic -r basic-gbp.pcap --groups groups.txt
page nonconforming -r nonconforming.pcap
page odd -r "odd<&>.pcap" --groups odd-groups.txt
# the screenshot: the top of the page (header, matrix, graph)
$py "$b" --shot "$work/report.png" --height 1900 \
	"$work/demo-policy.html" demo-policy.json "$work/basic.html" basic.json \
	"$work/nonconforming.html" nonconforming.json "$work/odd.html" odd.json || fail=1
[ -s report.png ] || { echo "report.browser: no screenshot"; fail=1; }

# the checks can fail: a request, an inline script, a cell's number gone,
# a group's name gone
sed 's#<main>#<main><img src="https://example.invalid/x.png" alt="">#' basic.html > b-req.html
sed 's#<main>#<main><script>document.title = "x"</script>#' basic.html > b-script.html
sed 's#class="num dark">2</text>#class="num dark"></text>#' basic.html > b-cell.html
sed 's#backup#bkp#g' basic.html > b-name.html
$py "$b" "$work/b-req.html" basic.json "$work/b-script.html" basic.json \
	"$work/b-cell.html" basic.json "$work/b-name.html" basic.json > broken.out || true
for x in b-req b-script b-cell b-name; do
	grep -q "$x.html: " broken.out || { echo "report.browser: $x.html passed the checks"; fail=1; }
done
[ $fail -eq 0 ] && echo "report.browser: ok (broken pages caught: $(grep -c . broken.out) problems)"
exit $fail
