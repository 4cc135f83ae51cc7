# tests/robustness/lib.sh: sourced by the failure-path tests (issue 30).
# Sets tmp (a folder removed at exit) and fail (0); err MSG... records a
# failure; refuse STATUS PATTERN CMD... runs CMD (at most 20 s) and wants
# exit STATUS, one line on standard error matching PATTERN (grep), nothing
# on standard output.
# shellcheck shell=sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }

refuse() {
	_want=$1 _pat=$2
	shift 2
	timeout 20 "$@" > "$tmp/refuse.out" 2> "$tmp/refuse.err"
	_rc=$?
	[ $_rc = "$_want" ] || err "$*: exit $_rc, want $_want ($(head -c 300 "$tmp/refuse.err"))"
	[ "$(wc -l < "$tmp/refuse.err")" = 1 ] || err "$*: $(wc -l < "$tmp/refuse.err") lines on stderr"
	grep -q -- "$_pat" "$tmp/refuse.err" ||
		err "$*: '$(head -c 300 "$tmp/refuse.err")' lacks '$_pat'"
	[ ! -s "$tmp/refuse.out" ] || err "$*: wrote to stdout"
}
