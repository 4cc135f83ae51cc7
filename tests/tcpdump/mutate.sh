#!/bin/sh
# A gbpdump with a planted bug for tcpdump.parity-detects: every length at
# the end of a line is ten more than it is.
"$GBPDUMP" "$@" | sed 's/, length \([0-9][0-9]*\)$/, length 1\1/'
