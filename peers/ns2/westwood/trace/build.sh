#!/usr/bin/env bash
# A tracing ns binary for event-by-event comparisons with tcpsim (README.md, "Against the
# agent"): the Westwood build (build.sh, /tmp/ns2w) with the agent's own per-ACK MYDEBUG lines
# on (time, ACK, estimate, cwnd, ssthresh) and ErrorModel/SeqList (seqlist_errmodel.cc).
#
#   peers/ns2/westwood/trace/build.sh [NS2W_DIR [OUT]]     # OUT default: NS2W_DIR/ns-trace
#
# The tree's sources are changed only while this builds; they and its ns are restored after.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DEST=${1:-/tmp/ns2w}
OUT=${2:-$DEST/ns-trace}
NS=$DEST/src/ns-2.35
[ -x "$NS/ns" ] || { echo "no Westwood build in $DEST (peers/ns2/westwood/build.sh)" >&2; exit 1; }
cd "$NS"
cp tcp/tcp-westwood.cc /tmp/.tcp-westwood.cc.orig
cp queue/errmodel.cc /tmp/.errmodel.cc.orig
restore() {
  cp /tmp/.tcp-westwood.cc.orig tcp/tcp-westwood.cc
  cp /tmp/.errmodel.cc.orig queue/errmodel.cc
  touch tcp/tcp-westwood.cc queue/errmodel.cc
  nice -n 10 make ns > "$DEST/logs/trace-restore.log" 2>&1
}
trap restore EXIT
sed -i 's/^#include "tcp-westwood.h"/#define MYDEBUG\n&/' tcp/tcp-westwood.cc
cat "$HERE/seqlist_errmodel.cc" >> queue/errmodel.cc
nice -n 10 make ns > "$DEST/logs/trace-make.log" 2>&1 || { tail -30 "$DEST/logs/trace-make.log" >&2; exit 1; }
cp ns "$OUT"
echo "built $OUT"
