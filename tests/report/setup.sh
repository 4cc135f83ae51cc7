# Sourced by the tests/report scripts: $work becomes a fresh folder holding
# the inputs under short relative names (the report's header shows them as
# given, so the pages do not depend on where the tree is):
#   basic-gbp.pcap groups.txt nonconforming.pcap tunnels.pcap mirror.pcap   from fixtures/
#   empty.pcap: a pcap file header and no frame
#   demo.pcap (gbpgen from demo.spec) demo-groups.txt demo.policy
#   odd<&>.pcap and odd-groups.txt: names to escape
# Needs $gbpgen $src $work; the caller has `set -eu`.
# shellcheck disable=SC2154 # set by the caller
rm -rf "$work"
mkdir -p "$work"
cp "$src/fixtures/basic-gbp.pcap" "$src/fixtures/groups.txt" \
   "$src/fixtures/nonconforming.pcap" "$src/fixtures/tunnels.pcap" \
   "$src/fixtures/mirror.pcap" "$work/"
head -c 24 "$src/fixtures/basic-gbp.pcap" > "$work/empty.pcap"
cp "$src/tests/report/groups.txt" "$work/demo-groups.txt"
cp "$src/tests/report/demo.policy" "$work/demo.policy"
"$gbpgen" -w "$work/demo.pcap" -f "$src/tests/report/demo.spec"
cp "$src/fixtures/basic-gbp.pcap" "$work/odd<&>.pcap"
printf '%s\n' "0x100 <b>&\"x'" '0x200 </svg><script>' '0x300 a&amp;b' > "$work/odd-groups.txt"
cd "$work" || exit 1
export TZ=UTC LC_ALL=C
