#!/bin/bash
# export.sh - regenerate kernel-series/ from the commits in the cached tree.
# usage: export.sh [TREE]   (default: $VXGBP_CACHE/dev)
# Two series, one folder each, from tags in TREE:
#   net/       vxgbp-base..vxgbp-net        subject prefix "PATCH net"
#   net-next/  vxgbp-net..vxgbp-net-next    subject prefix "PATCH net-next"
# Each folder gets 0000-cover-letter.patch (subject and text from its
# cover-body.txt), one 00NN-*.patch per commit and its own series file;
# the top-level series file lists both, net first, in the order
# qemu/build-kernel.sh applies them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=${1:-${VXGBP_CACHE:-/var/cache/vxgbp}/dev}
export_one() { # folder range prefix
	local d=$here/$1
	rm -f "$d"/[0-9][0-9][0-9][0-9]-*.patch
	git -C "$tree" -c user.name="$(git config --global user.name)" \
		-c user.email="$(git config --global user.email)" \
		format-patch -q --cover-letter --no-signature --zero-commit \
		--subject-prefix="$3" -o "$d" "$2"
	python3 - "$d" <<'PY'
import sys, pathlib
d = pathlib.Path(sys.argv[1])
body = (d / "cover-body.txt").read_text()
subject, rest = body.split("\n", 1)
cl = d / "0000-cover-letter.patch"
s = cl.read_text()
s = s.replace("*** SUBJECT HERE ***", subject.strip())
s = s.replace("*** BLURB HERE ***", rest.strip("\n"))
cl.write_text(s)
PY
	(cd "$d" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-' >series)
	echo "export: $1: $(wc -l <"$d/series") patches + cover letter"
}
export_one net vxgbp-base..vxgbp-net "PATCH net"
export_one net-next vxgbp-net..vxgbp-net-next "PATCH net-next"
{
	sed 's|^|net/|' "$here/net/series"
	sed 's|^|net-next/|' "$here/net-next/series"
} >"$here/series"
