#!/usr/bin/env bash
# Build ns-2.35 + the TCP Westwood agents + Agent/TCP/WestwoodPlusNR (tcp-westwood-plus.cc in
# this folder: the TCPW-NR agent with the Westwood+ per-RTT estimator) into a copy of the
# Westwood build.
#
#   peers/ns2/westwood/plus/build.sh [WESTWOOD_DIR [DEST_DIR]]
#
# WESTWOOD_DIR (default /tmp/ns2w): a finished peers/ns2/westwood/build.sh tree.
# DEST_DIR     (default /tmp/ns2wp): the copy with the new agent; its ns is DEST_DIR/src/ns-2.35/ns.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SRC=${1:-/tmp/ns2w}
DEST=${2:-/tmp/ns2wp}
NS=$DEST/src/ns-2.35

[ -x "$SRC/src/ns-2.35/ns" ] || { echo "no Westwood ns-2.35 build in $SRC (run peers/ns2/westwood/build.sh)" >&2; exit 1; }
[ -d "$DEST" ] || cp -a "$SRC" "$DEST"

# 1. The agent.
cp "$HERE/tcp-westwood-plus.cc" "$NS/tcp/tcp-westwood-plus.cc"

# 2. Its object after the TCPW agents' (Makefile.in for reconfigures, Makefile for this build).
for mk in Makefile.in Makefile; do
  grep -q 'tcp/tcp-westwood-plus.o' "$NS/$mk" \
    || sed -i 's#tcp/tcp-westwood.o tcp/tcp-westwood-nr.o#& tcp/tcp-westwood-plus.o#' "$NS/$mk"
  grep -q 'tcp/tcp-westwood-plus.o' "$NS/$mk" || { echo "could not add the object to $mk" >&2; exit 1; }
done

# 3. OTcl defaults of the variables the agent binds: the TCPW-NR agent's (westwood/build.sh).
if ! grep -q 'Agent/TCP/WestwoodPlusNR set fr_alpha_' "$NS/tcl/lib/ns-default.tcl"; then
  {
    echo ""
    echo "# Agent/TCP/WestwoodPlusNR (peers/ns2/westwood/plus/build.sh): the TCPW-NR agent's defaults"
    for kv in "current_bwe_ 0" "last_bwe_sample_ 0" "unaccounted_ 0" "fr_a_ 1" \
              "min_rtt_estimate 10000" "myseqno_ 1" "lastackno_ 0" "lastackrx_ 0" \
              "fr_alpha_ 0.9" "filter_type_ 3" "tau_ 1.0" \
              "newreno_changes_ 0" "newreno_changes1_ 0" "partial_window_deflation_ 0" "exit_recovery_fix_ 0"; do
      echo "Agent/TCP/WestwoodPlusNR set $kv"
    done
  } >> "$NS/tcl/lib/ns-default.tcl"
fi

# 4. Incremental rebuild.
cd "$NS"
nice -n 5 make -j2 ns > "$DEST/logs/westwood-plus-make.log" 2>&1 || { tail -40 "$DEST/logs/westwood-plus-make.log" >&2; exit 1; }
echo "built $NS/ns"
