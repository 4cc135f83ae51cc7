#!/bin/sh
# gbpdump command-line behaviour beyond one output: -w and what it refuses,
# exit statuses, --help.  Usage: cli.sh GBPDUMP GBPGEN FIXTURES
set -u
gbpdump=$1 gbpgen=$2 fix=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
expect_rc() { # expect_rc WANT DESC cmd...
	want=$1 desc=$2
	shift 2
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then ok; else bad "$desc: exit $rc, wanted $want ($(head -c 300 "$tmp/err"))"; fi
}

# -w writes exactly the matching frames, readable back
expect_rc 0 "-w --gbp" "$gbpdump" -r "$fix/basic-gbp.pcap" --gbp 0x200 -w "$tmp/web.pcap"
[ -s "$tmp/out" ] && bad "-w printed frames to stdout" || ok
n=$("$gbpdump" -r "$tmp/web.pcap" | wc -l)
[ "$n" -eq 4 ] && ok || bad "-w --gbp 0x200 wrote $n frames, wanted 4"
[ "$(stat -c %a "$tmp/web.pcap")" = "644" ] || [ "$(stat -c %a "$tmp/web.pcap")" = "$(printf '%o' $((0666 & ~$(umask))))" ] && ok || bad "-w file mode $(stat -c %a "$tmp/web.pcap")"
"$gbpdump" -r "$fix/basic-gbp.pcap" --gbp 0x200 > "$tmp/a"
"$gbpdump" -r "$tmp/web.pcap" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" && ok || bad "frames read back from -w differ"

# refuses to overwrite its own input, even with --force, and leaves it intact
cp "$fix/basic-gbp.pcap" "$tmp/in.pcap"
expect_rc 2 "-w onto the input" "$gbpdump" -r "$tmp/in.pcap" -w "$tmp/in.pcap" --force
grep -q "refusing to overwrite the capture being read" "$tmp/err" && ok || bad "no clear message for -w onto the input"
cmp -s "$tmp/in.pcap" "$fix/basic-gbp.pcap" && ok || bad "input changed by a refused -w"
ln -s "$tmp/in.pcap" "$tmp/link.pcap"
expect_rc 2 "-w onto the input via a symlink" "$gbpdump" -r "$tmp/in.pcap" -w "$tmp/link.pcap" --force

# refuses an existing file without --force; replaces it with --force
echo keep > "$tmp/exists.pcap"
expect_rc 2 "-w onto an existing file" "$gbpdump" -r "$fix/basic-gbp.pcap" -w "$tmp/exists.pcap"
[ "$(cat "$tmp/exists.pcap")" = keep ] && ok || bad "existing file changed without --force"
expect_rc 0 "-w --force" "$gbpdump" -r "$fix/basic-gbp.pcap" -w "$tmp/exists.pcap" --force
[ "$("$gbpdump" -r "$tmp/exists.pcap" | wc -l)" -eq 10 ] && ok || bad "--force did not write all frames"

# an unwritable place: a clear error, exit 2, nothing left behind
expect_rc 2 "-w into a missing folder" "$gbpdump" -r "$fix/basic-gbp.pcap" -w "$tmp/no/such/dir/x.pcap"
[ -z "$(ls "$tmp" | grep '\.tmp\.')" ] && ok || bad "temporary file left behind"

# a truncated input with -w: frames before the error are kept, exit 1
expect_rc 1 "-w from a cut-short capture" "$gbpdump" -r "$fix/cut-short.pcap" -w "$tmp/cut.pcap"
grep -q "kept the 9 frames" "$tmp/err" && ok || bad "no note of the frames kept ($(cat "$tmp/err"))"

# usage errors
expect_rc 2 "no input" "$gbpdump"
expect_rc 2 "both -r and -i" "$gbpdump" -r x -i lo
expect_rc 2 "bad --gbp" "$gbpdump" -r "$fix/basic-gbp.pcap" --gbp 70000
expect_rc 2 "bad --vni" "$gbpdump" -r "$fix/basic-gbp.pcap" --vni -1
mkdir "$tmp/nocaps" # -r DIR reads the capture files in it: none here
expect_rc 2 "a directory" "$gbpdump" -r "$tmp/nocaps"
grep -q "is a directory" "$tmp/err" && ok || bad "directory: unclear message"
expect_rc 2 "an empty file" "$gbpdump" -r /dev/null
expect_rc 0 "--help" "$gbpdump" --help
grep -q "Exit status" "$tmp/out" && ok || bad "--help does not document exit statuses"

# gbpgen keeps existing files too
expect_rc 2 "gbpgen onto an existing file" "$gbpgen" -w "$tmp/exists.pcap" vni=1
expect_rc 1 "gbpgen bad spec" "$gbpgen" -w "$tmp/new.pcap" 'vni=99999999'
[ ! -e "$tmp/new.pcap" ] && ok || bad "gbpgen left a file after a bad spec"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
