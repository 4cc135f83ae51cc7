#!/bin/bash
# export.sh - regenerate kernel-series/ from the commits in the cached tree.
# usage: export.sh [TREE] [RANGE]   (default: $VXGBP_CACHE/dev, vxgbp-base..HEAD)
# Writes 0000-cover-letter.patch (subject and body from cover-body.txt),
# one 00NN-*.patch per commit and the series file.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=${1:-${VXGBP_CACHE:-/var/cache/vxgbp}/dev}
range=${2:-vxgbp-base..HEAD}
rm -f "$here"/[0-9][0-9][0-9][0-9]-*.patch
git -C "$tree" -c user.name="$(git config --global user.name)" -c user.email="$(git config --global user.email)" format-patch -q --cover-letter --no-signature --zero-commit \
	--subject-prefix="PATCH net-next" -o "$here" "$range"
python3 - "$here" <<'PY'
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
(cd "$here" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-' >series)
echo "export: $(wc -l <"$here/series") patches + cover letter in $here"
