#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The man pages: gbpdump.1, gbpgen.1, gbpprobe.1 and the generated vxgbp.7.
#
#   man.sh render  PAGE...                 groff and man(1) without a warning
#   man.sh options COMPLETION PROG PAGE    every option PROG --help names is
#                                          in PAGE
#   man.sh keys    GBPGEN PAGE             every spec key, wrap kind and wrap
#                                          parameter gbpgen --help lists
#   man.sh rules   RULES_C GBPDUMP PAGE    every rule id of rules.c, at its
#                                          level; the --check profiles
#   man.sh install BUILDDIR                cmake --install puts pages and
#                                          completions where they belong
set -u
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
done_() { echo "man $1: $fails failed"; [ "$fails" -eq 0 ]; }

# A page as plain text on lines long enough that nothing is hyphenated or
# broken (a word on two lines would hide it from grep).
text() {
	groff -man -Tutf8 -rLL=400n -rHY=0 -P-bou "$1" 2>/dev/null
}

# Does the text of page $1 hold word $2 (not as part of a longer option or
# key: the characters around it are not letters, digits or '-'; after a
# "key=" anything may follow)?  The page is rendered once.
has_word() {
	local re end='([^-[:alnum:]]|$)'
	if [ "${text_of-}" != "$1" ]; then
		text_of=$1
		page_text=$(text "$1")
	fi
	re=$(printf '%s' "$2" | sed 's/[.]/\\./g')
	case $2 in *=) end='' ;; esac
	printf '%s\n' "$page_text" | grep -qE -- "(^|[^-[:alnum:]])$re$end"
}

render() {
	local page err
	for page in "$@"; do
		[ -s "$page" ] || { fail "$page: missing or empty"; continue; }
		err=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
		[ -z "$err" ] || fail "$page: groff -ww: $err"
		# what lintian runs on every page
		err=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 \
		      man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
		[ -z "$err" ] || fail "$page: man --warnings: $err"
		out=$(LC_ALL=C.UTF-8 MANPAGER=cat MANWIDTH=80 man -l "$page" 2>&1)
		printf '%s\n' "$out" | grep -q '^NAME' || fail "$page: man -l shows no NAME section"
		sect=$(sed -n 's/^\.TH [^ ]* \([0-9]\).*/\1/p' "$page")
		[ "$sect" = "${page##*.}" ] || fail "$page: .TH section '$sect' is not the file's"
		echo "ok   $page renders"
	done
	done_ render
}

options() {
	local comp=$1 prog=$2 page=$3 opts o missing=""
	# shellcheck disable=SC1090
	. "$comp"   # _vxgbp_options: what the completion offers is what must be documented
	opts=$(_vxgbp_options "$prog")
	# the extraction itself: it must find what every vxgbp program has
	for o in -w --force; do
		printf '%s\n' "$opts" | grep -qxF -- "$o" ||
			fail "${prog##*/} --help: the option list [$(echo $opts)] lacks $o"
	done
	for o in $opts --help --version; do
		has_word "$page" "$o" || missing="$missing $o"
	done
	[ -z "$missing" ] || fail "${page##*/} lacks options that ${prog##*/} --help names:$missing"
	echo "checked $(echo $opts | wc -w) options of ${prog##*/} against ${page##*/}"
	done_ options
}

keys() {
	local gbpgen=$1 page=$2 help k n=0 missing=""
	help=$(LC_ALL=C "$gbpgen" --help)
	# spec keys: "  key=ARG   help" (the table in gbpgen.c prints them)
	for k in $(printf '%s\n' "$help" | sed -n 's/^  \([a-z][-a-z0-9]*\)=.*/\1/p'); do
		n=$((n + 1))
		has_word "$page" "$k=" || missing="$missing $k="
	done
	[ "$n" -ge 50 ] || fail "gbpgen --help: only $n keys found"
	# wrap= kinds ("  gre      GRE in IP: ...") and their parameters (p=)
	kinds=$(printf '%s\n' "$help" | sed -n 's/^  \([a-z][a-z0-9]*\)   *[A-Za-z].*/\1/p')
	params=$(printf '%s\n' "$help" | sed -n '/^wrap=KIND/,/^All layers/p' |
		 grep -oE '(^|[ (,])[a-z]+=' | tr -d ' (,' | sort -u)
	[ "$(echo $kinds | wc -w)" -ge 8 ] || fail "gbpgen --help: wrap kinds [$(echo $kinds)]"
	for k in $kinds; do
		has_word "$page" "$k" || missing="$missing wrap=$k"
	done
	for k in $params; do
		has_word "$page" "$k" || missing="$missing $k (wrap)"
	done
	[ -z "$missing" ] || fail "${page##*/} lacks gbpgen keys:$missing"
	echo "checked $n keys, $(echo $kinds | wc -w) wrap kinds, $(echo $params | wc -w) wrap parameters"
	done_ keys
}

rules() {
	local rules_c=$1 gbpdump=$2 page=$3 id level n=0 t listed mine
	t=$(text "$page")
	while read -r id level; do
		n=$((n + 1))
		# the entry: the id, then "LEVEL; source." (on its line or the next)
		printf '%s\n' "$t" | awk -v id="$id" -v lv="$level" '
			hit { ok = $1 == lv ";"; exit }
			$1 == id { if (NF > 1) { ok = $2 == lv ";"; exit } hit = 1 }
			END { exit !ok }' || fail "${page##*/}: no entry '$id' at level $level"
	done < <(grep -o '{ "[a-z0-9]*\.[a-z0-9-]*", VXGBP_LEVEL_[A-Z]*' "$rules_c" |
		 sed 's/{ "\(.*\)", VXGBP_LEVEL_\(.*\)/\1 \2/')
	[ "$n" -ge 40 ] || fail "$rules_c: only $n rule ids found"
	# the profiles: the ones gbpdump names in its error for an unknown one
	listed=$("$gbpdump" --check --profile no-such-profile -r /dev/null 2>&1 |
		 sed -n 's/.*unknown profile.*(\(.*\)).*/\1/p' | tr -d ' ' | tr ',' '\n' | sort)
	mine=$(awk '/^\.SH PROFILES/ { p = 1; next } /^\.SH/ { p = 0 }
		    p && prev == ".TP" && $1 == ".B" { print $2 } { prev = $0 }' "$page" | sort)
	[ -n "$listed" ] && [ "$listed" = "$mine" ] ||
		fail "${page##*/}: profiles [$(echo $mine)], gbpdump has [$(echo $listed)]"
	echo "checked $n rule ids and the profiles [$(echo $listed)]"
	done_ rules
}

install_() {
	local build=$1 f
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/vxgbp-man-install.XXXXXX") || exit 2
	trap 'rm -rf "$tmp"' EXIT
	cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/log" 2>&1 ||
		{ cat "$tmp/log"; fail "cmake --install"; done_ install; return; }
	for f in share/man/man1/gbpdump.1 share/man/man1/gbpgen.1 share/man/man1/gbpprobe.1 \
		 share/man/man7/vxgbp.7 share/bash-completion/completions/gbpdump \
		 share/bash-completion/completions/gbpgen \
		 share/bash-completion/completions/gbpprobe; do
		[ -s "$tmp/prefix/$f" ] || fail "cmake --install: no $f under the prefix"
	done
	# the installed page is the generated one, and man finds it by name
	grep -q '^\.B gbp\.i\\-flag\\-clear$' "$tmp/prefix/share/man/man7/vxgbp.7" ||
		fail "installed vxgbp.7 has no rule entries"
	LC_ALL=C.UTF-8 MANPAGER=cat MANPATH="$tmp/prefix/share/man" man 7 vxgbp 2>/dev/null |
		grep -q 'gbp.i-flag-clear' || fail "man 7 vxgbp in the installed tree"
	# bash-completion finds it in the installed tree by the program's name
	# and it registers all three programs
	XDG_DATA_DIRS="$tmp/prefix/share" bash -c '. /usr/share/bash-completion/bash_completion &&
		__load_completion gbpprobe && complete -p gbpdump gbpgen gbpprobe' >/dev/null 2>&1 ||
		fail "bash-completion does not load the installed completion"
	echo "installed: $(cd "$tmp/prefix" && find share/man share/bash-completion -type f | sort | tr '\n' ' ')"
	done_ install
}

cmd=$1
shift
case $cmd in
render) render "$@" ;;
options) options "$@" ;;
keys) keys "$@" ;;
rules) rules "$@" ;;
install) install_ "$@" ;;
*) echo "man.sh: unknown check '$cmd'" >&2; exit 2 ;;
esac
