#!/bin/sh
# run.sh [-n] [-m] [-k] [-j N] [-w DIR] [-l LIST] [ID...]
# The mutation harness (issue 33, docs/testing.md).  For each planted bug
# of LIST (mutants.list, or only the IDs given): apply it to a scratch copy
# of the tree, rebuild incrementally, run the tests that cover its file;
# when they all pass, run the whole fast set; revert.  Prints a table (id,
# the tests that caught it / SURVIVED / equivalent: reason) and a score.
#
#   -n       dry run: check that every mutant applies (one changed line),
#            build nothing
#   -m       the mapped tests only, no fast set after them (quicker, weaker)
#   -k       keep going past a list error (does not apply, does not build)
#   -j N     build and test jobs (2)
#   -w DIR   scratch folder, kept for the next run (an incremental build);
#            without it a temporary one, removed at the end
#   -l LIST  the list (tests/mutation/mutants.list)
#
# The source tree is only read: the copy is made with tar from the files
# git knows (committed or not, ignored ones left out) and every mutant is
# applied in the copy, so an interrupted run (Ctrl-C) leaves nothing
# behind in the tree; the trap restores the scratch file too.
# Exit status: 0 when no mutant survived, 1 when one did, 2 on an error of
# the list (a mutant that does not apply or does not build) or the harness.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
list=$here/mutants.list
jobs=2 dry=0 mapped=0 keep=0 work=
fast_set='bench|qemu|fuzz|bare|mutation|live'
while getopts nmkj:w:l: o; do
	case $o in
	n) dry=1 ;;
	m) mapped=1 ;;
	k) keep=1 ;;
	j) jobs=$OPTARG ;;
	w) work=$OPTARG ;;
	l) list=$OPTARG ;;
	*) sed -n '2,20s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
only=" $* "

tmp_work=0
if [ -z "$work" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/vxgbp-mutation.XXXXXX") || exit 2
	tmp_work=1
fi
mkdir -p "$work" || exit 2
work=$(cd "$work" && pwd)
# inside the tree only where the copy leaves it out (an ignored build
# folder, as test.sh's build/): anywhere else the copy would copy itself
case $work/ in "$src"/*)
	git -C "$src" check-ignore -q "$work" 2>/dev/null ||
		{ echo "run.sh: the scratch folder $work is inside the source tree and not ignored by git" >&2; exit 2; } ;;
esac
cur= # the scratch file a mutant is applied to, while it is
restore() {
	[ -n "$cur" ] && cp "$work/orig" "$work/src/$cur" && cur=
	return 0
}
cleanup() {
	restore
	[ "$tmp_work" = 1 ] && rm -rf "$work"
}
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM HUP
trap cleanup EXIT

# the list: "id | file | tests | what | sed expression" (list_check)
entries() {
	sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$list"
}
trim() { printf '%s' "$1" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//'; }

# The scratch copy: src/ (what git knows, as it is now) and build/.
copy_tree() {
	rm -rf "$work/src"
	mkdir -p "$work/src"
	if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$src" ls-files -z -c -o --exclude-standard |
			(cd "$src" && xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\n" "$f"; done' sh) |
			tar -C "$src" -cf - -T - | tar -C "$work/src" -xf -
		# a repository of its own, nothing committed: what reads the
		# files git knows (deb.packages copies them) finds them all
		git init -q "$work/src"
	else
		(cd "$src" && tar -cf - --exclude=./build --exclude=./build-asan .) |
			tar -C "$work/src" -xf -
	fi
	# a file a killed run left mutated was rebuilt from the mutant: every
	# file of the list is made newer than its object
	entries | while IFS='|' read -r _ f _; do
		f=$(trim "$f")
		[ -f "$work/src/$f" ] && touch "$work/src/$f"
	done
}

build() {
	nice cmake --build "$work/build" -j"$jobs" </dev/null >"$work/build.log" 2>&1
}

# ctest ARGS...: the names of the tests that failed, in $work/failed
run_ctest() {
	(cd "$work/build" && nice ctest -j"$jobs" --timeout 600 --output-on-failure "$@") </dev/null >"$work/ctest.log" 2>&1
	rc=$?
	sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) (.*/\1/p' "$work/ctest.log" >"$work/failed"
	return $rc
}

# the first three tests that failed, and how many more
caught_by() {
	more=$(($(wc -l <"$work/failed") - 3))
	head -n 3 "$work/failed" | tr '\n' ' ' | sed 's/ $//'
	[ $more -gt 0 ] && printf ' and %d more' $more
	return 0
}

start=$(date +%s)
copy_tree
if [ $dry = 0 ]; then
	# no LTO, no fuzz harnesses (clang builds them from the library's
	# sources again for every mutant, and the fast set does not run them)
	if [ ! -f "$work/build/CMakeCache.txt" ]; then
		cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
			-DVXGBP_QEMU_TESTS=OFF -DVXGBP_LTO=OFF \
			-DVXGBP_CLANG=/bin/false >"$work/configure.log" 2>&1 ||
			{ cat "$work/configure.log"; echo "run.sh: cannot configure" >&2; exit 2; }
	fi
	build || { tail -n 30 "$work/build.log"; echo "run.sh: the unmutated tree does not build" >&2; exit 2; }
	echo "run.sh: scratch build ready in $(( $(date +%s) - start )) s ($work)"
fi

n=0 caught=0 survived=0 equiv=0 errors=0
table=$work/table
: >"$table"
row() { printf '%-5s %-34s %s\n' "$1" "$2" "$3" | tee -a "$table"; }
row id file result
entries >"$work/list"
while IFS='|' read -r id file tests what expr; do
	id=$(trim "$id") file=$(trim "$file") tests=$(trim "$tests") what=$(trim "$what")
	expr=$(trim "$expr")
	case $only in "  ") ;; *" $id "*) ;; *) continue ;; esac
	n=$((n + 1))
	f=$work/src/$file
	if [ ! -f "$f" ] || [ -z "$expr" ] || [ -z "$tests" ]; then
		row "$id" "$file" "ERROR: no such file, or a field missing"
		errors=$((errors + 1)); [ $keep = 1 ] && continue; break
	fi
	cp "$f" "$work/orig"
	cur=$file
	if ! sed -i -e "$expr" "$f" 2>"$work/sed.err"; then
		row "$id" "$file" "ERROR: sed: $(head -n 1 "$work/sed.err")"
		restore; errors=$((errors + 1)); [ $keep = 1 ] && continue; break
	fi
	changed=$(diff "$work/orig" "$f" | grep -c '^>')
	if [ "$changed" != 1 ]; then
		row "$id" "$file" "ERROR: changes $changed lines, not one (does not apply)"
		restore; errors=$((errors + 1)); [ $keep = 1 ] && continue; break
	fi
	if [ $dry = 1 ]; then
		row "$id" "$file" "applies: $(diff "$work/orig" "$f" | sed -n 's/^> *//p' | cut -c1-70)"
		restore; continue
	fi
	t0=$(date +%s)
	if ! build; then
		row "$id" "$file" "ERROR: does not build: $(grep -m1 'error' "$work/build.log" | cut -c1-60)"
		restore; errors=$((errors + 1)); [ $keep = 1 ] && continue; break
	fi
	# the tests of the file: names (regular expressions), any of them
	re=$(printf '%s' "$tests" | tr -s ' ' '|')
	if ! run_ctest -R "$re"; then
		res="caught by $(caught_by)"
		[ -s "$work/failed" ] || res="caught (ctest $rc: $(tail -n 1 "$work/ctest.log"))"
	elif [ $mapped = 0 ] && ! run_ctest -LE "$fast_set" --stop-on-failure; then
		res="caught by $(caught_by) (fast set)"
	else
		res=SURVIVED
	fi
	mkdir -p "$work/logs"
	cp "$work/ctest.log" "$work/logs/$id.ctest.log"
	restore
	case $res:$what in
	SURVIVED:equivalent:*) res=$what; equiv=$((equiv + 1)) ;;
	SURVIVED:*) survived=$((survived + 1)) ;;
	caught*:equivalent:*)
		res="ERROR: listed as equivalent, $res"; errors=$((errors + 1)) ;;
	*) caught=$((caught + 1)) ;;
	esac
	row "$id" "$file" "$res [$(( $(date +%s) - t0 )) s]"
done <"$work/list"
[ -n "$cur" ] && restore

el=$(( $(date +%s) - start ))
if [ $dry = 1 ]; then
	echo "run.sh: $n mutants, $errors list error(s)"
	[ $errors = 0 ]; exit $?
fi
judged=$((n - equiv - errors))
if [ $judged -gt 0 ]; then
	score=$(awk -v c=$caught -v j=$judged 'BEGIN { printf "%.1f", 100 * c / j }')
else
	score=-
fi
echo "run.sh: $n mutants: $caught caught, $survived survived, $equiv equivalent, $errors list error(s); score $score % ($caught of $judged); $el s$([ $mapped = 1 ] && echo ', mapped tests only')"
[ $errors -gt 0 ] && exit 2
[ $survived -gt 0 ] && exit 1
exit 0
