#!/bin/bash
# export.sh - regenerate kernel-series/ from the commits in the cached tree.
# usage: export.sh [TREE]   (default: $VXGBP_CACHE/dev)
# Three folders, from tags in TREE:
#   stable/    vxgbp-base..vxgbp-stable     "PATCH 6.12.y" (backports for
#              stable@vger.kernel.org, upstream already; no cover letter)
#   net/       vxgbp-stable..vxgbp-net      "PATCH net v3"
#   net-next/  vxgbp-net..vxgbp-net-next    "PATCH net-next v3"
# A folder with a cover-body.txt gets 0000-cover-letter.patch (subject and
# text from it); each gets one 00NN-*.patch per commit and its own series
# file; the top-level series file lists them in the order
# qemu/build-kernel.sh applies them: stable, net, net-next.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=${1:-${VXGBP_CACHE:-/var/cache/vxgbp}/dev}
export_one() { # folder range prefix
	local d=$here/$1 cover=--no-cover-letter
	mkdir -p "$d"
	rm -f "$d"/[0-9][0-9][0-9][0-9]-*.patch
	[ -f "$d/cover-body.txt" ] && cover=--cover-letter
	git -C "$tree" -c user.name="$(git config --global user.name)" \
		-c user.email="$(git config --global user.email)" \
		format-patch -q $cover --no-signature --zero-commit \
		--subject-prefix="$3" -o "$d" "$2"
	[ -f "$d/cover-body.txt" ] && python3 - "$d" <<'PY'
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
	echo "export: $1: $(wc -l <"$d/series") patches ($cover)"
}
export_one stable vxgbp-base..vxgbp-stable "PATCH 6.12.y"
export_one net vxgbp-stable..vxgbp-net "PATCH net v3"
export_one net-next vxgbp-net..vxgbp-net-next "PATCH net-next v3"
{
	sed 's|^|stable/|' "$here/stable/series"
	sed 's|^|net/|' "$here/net/series"
	sed 's|^|net-next/|' "$here/net-next/series"
} >"$here/series"
