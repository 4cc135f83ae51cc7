#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The one runner of every test list (tests/README.md has the dialect):
#   name  capture  expected-output  exit-status  options...
#
#   testlist.sh -l LIST                      check LIST, print its names
#   testlist.sh [options] LIST [NAME] -- COMMAND [ARGS...]
#
# Runs case NAME (every case without NAME): in the folder of -C,
# "COMMAND ARGS -r CAPTURE OPTIONS" (-i: "COMMAND ARGS OPTIONS < CAPTURE"),
# the options split and quoted as the shell does, TZ=UTC and LC_ALL=C.
# The case passes when the exit status is exit-status and standard output
# (-2: with standard error) is the expected file byte for byte.  On a
# mismatch: NEW/<expected-output> and DIFF/<name>.diff under -b, and one
# line "FAIL <test>: ..." first.  VXGBP_UPDATE_GOLDEN=1 writes the new
# output over the expected file instead (the exit status is still checked).
#
# A capture "@path" was made at test time: path is under -b, not -C.
# "-" is passed as it is (the options then redirect standard input).
# Options:
#   -t PREFIX  name of the tests in messages (PREFIX.NAME)
#   -e DIR     the expected outputs (default: LIST's folder/expected)
#   -C DIR     the folder the command runs in (default: the current one)
#   -b DIR     the build folder: @captures, NEW/ and DIFF/ (default: .)
#   -i         the capture on standard input, not as -r CAPTURE
#   -2         standard error is part of the output
#   -x         a non-zero exit status is also a last line "EXIT n"
# The command's own path, when absolute, is written as its base name in
# the output (some libpcap messages name the program).
set -u
prefix='' expdir='' rundir=. build=. stdin='' merge='' exitline='' names=''
usage() {
	echo "usage: testlist.sh -l LIST | [-t PREFIX] [-e DIR] [-C DIR] [-b DIR] [-i2x] LIST [NAME] -- COMMAND..." >&2
	exit 2
}
while getopts lt:e:C:b:i2x o; do
	case $o in
	l) names=1 ;;
	t) prefix=$OPTARG ;;
	e) expdir=$OPTARG ;;
	C) rundir=$OPTARG ;;
	b) build=$OPTARG ;;
	i) stdin=1 ;;
	2) merge=1 ;;
	x) exitline=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
list=$1
shift
case $list in /*) ;; *) list=$PWD/$list ;; esac
case $build in /*) ;; *) build=$PWD/$build ;; esac
[ -r "$list" ] || { echo "testlist.sh: cannot read $list" >&2; exit 2; }
: "${expdir:=$(dirname "$list")/expected}"
[ -n "$prefix" ] || prefix=$(basename "$(dirname "$list")")

# scan [NAME]: check every line of the list; without NAME print the names,
# with it set capture, expected, status and opts from its line (1: none).
scan() {
	want=${1:-} seen=' ' n=0 found=1
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		read -r f1 f2 f3 f4 f5 <<-EOF
		$line
		EOF
		case $f1 in ''|'#'*) continue ;; esac
		case $f1 in *[!A-Za-z0-9._+-]*) bad "$n" "name '$f1': want letters, digits, . _ + -" ;; esac
		[ -n "$f3" ] || bad "$n" "$f1: no expected output"
		case $f4 in ''|*[!0-9]*) bad "$n" "exit status '$f4' is not a number" ;; esac
		[ "$f4" -le 255 ] || bad "$n" "exit status $f4 is above 255"
		case $seen in *" $f1 "*) bad "$n" "$f1: a second case of that name" ;; esac
		seen="$seen$f1 "
		if [ -z "$want" ]; then
			echo "$f1"
		elif [ "$f1" = "$want" ]; then
			found=0 capture=$f2 expected=$f3 status=$f4 opts=$f5
		fi
	done < "$list"
	[ -z "$want" ] || return $found
}
bad() {
	echo "$list:$1: $2 (want: name capture expected-output exit-status options...)" >&2
	exit 2
}

# one NAME COMMAND...: run one case, 0 when it passes
one() {
	name=$1
	shift
	scan "$name" || { echo "testlist.sh: no case $name in $list" >&2; return 2; }
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/testlist.XXXXXX") || return 2
	rm -f "$build/DIFF/$name.diff"
	case $capture in @*) capture=$build/${capture#@} ;; esac
	(
		cd "$rundir" || exit 2
		export TZ=UTC LC_ALL=C
		if [ -z "$stdin" ]; then
			set -- "$@" -r "$capture"
		elif [ "$capture" != - ]; then
			exec < "$capture" || exit 2
		fi
		if [ -n "$merge" ]; then
			eval "\"\$@\" $opts" > "$tmp/out" 2>&1
		else
			eval "\"\$@\" $opts" > "$tmp/out" 2> "$tmp/err"
		fi
	)
	rc=$?
	[ -n "$exitline" ] && [ $rc -ne 0 ] && echo "EXIT $rc" >> "$tmp/out"
	case $1 in /*) sed -i "s#$1#${1##*/}#g" "$tmp/out" ;; esac
	verdict $rc
	r=$?
	rm -rf "$tmp"
	return $r
}

# verdict RC: compare $tmp/out and RC with the case's expectations
verdict() {
	why='' differs=''
	[ "$1" = "$status" ] || why="exit status $1, expected $status"
	exp=$expdir/$expected
	if [ -f "$exp" ] && cmp -s "$exp" "$tmp/out"; then
		[ -z "$why" ] && return 0
	elif [ "${VXGBP_UPDATE_GOLDEN:-0}" = 1 ]; then
		mkdir -p "$(dirname "$exp")" && cp "$tmp/out" "$exp" &&
			echo "$prefix.$name: wrote $exp"
		[ -z "$why" ] && return 0
	else
		mkdir -p "$build/NEW/$(dirname "$expected")" "$build/DIFF"
		cp "$tmp/out" "$build/NEW/$expected"
		if [ -f "$exp" ]; then
			diff -u "$exp" "$tmp/out" > "$build/DIFF/$name.diff"
			differs=1
			why="${why:+$why; }output differs from $exp (diff: $build/DIFF/$name.diff)"
		else
			why="${why:+$why; }no expected file $exp (new output: $build/NEW/$expected)"
		fi
	fi
	echo "FAIL $prefix.$name: $why"
	[ -n "$differs" ] && head -40 "$build/DIFF/$name.diff"
	if [ -s "$tmp/err" ]; then
		echo "--- standard error:"
		head -20 "$tmp/err"
	fi
	return 1
}

if [ -n "$names" ]; then
	scan
	exit 0
fi
case ${1:-} in
--) all=1 ;;
'') usage ;;
*) all='' want=$1; shift; [ "${1:-}" = -- ] || usage ;;
esac
shift
[ $# -ge 1 ] || usage
if [ -z "$all" ]; then
	one "$want" "$@"
	exit $?
fi
cases=$(scan) || exit 2
total=0 failed=0
for c in $cases; do
	total=$((total + 1))
	( one "$c" "$@" ) || failed=$((failed + 1))
done
echo "testlist.sh: $prefix: $((total - failed)) of $total cases pass"
[ $failed -eq 0 ]
