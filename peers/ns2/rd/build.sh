#!/usr/bin/env bash
# Build ns-2.35 with Queue/RD (podlesny's RD scheduler, the project's port of tcpsim's RD:
# rd-services.cc beside this script) into a copy of a built stock ns-2.35 tree.
#
#   peers/ns2/rd/build.sh [STOCK_DIR [DEST_DIR]]
#
# STOCK_DIR (default /tmp/ns2): a finished stock build (peers/ns2/setup.sh; src/ns-2.35/ns).
# DEST_DIR  (default /tmp/ns2rd): where the copy with Queue/RD goes; its ns binary is
#           DEST_DIR/src/ns-2.35/ns (run the twins with NS2_ROOT=DEST_DIR peers/ns2/run.sh).
# Idempotent: re-running copies the source again and rebuilds what changed.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
STOCK=${1:-/tmp/ns2}
DEST=${2:-/tmp/ns2rd}
NS=$DEST/src/ns-2.35

[ -x "$STOCK/src/ns-2.35/ns" ] || { echo "no built ns-2.35 in $STOCK" >&2; exit 1; }
if [ ! -d "$DEST" ]; then
  cp -a "$STOCK" "$DEST"
fi

# 1. The queue's source (cmp: an unchanged file keeps its timestamp, so make skips it).
cmp -s "$HERE/rd-services.cc" "$NS/queue/rd-services.cc" || cp "$HERE/rd-services.cc" "$NS/queue/rd-services.cc"

# 2. Its object into the build (Makefile.in for reconfigures, Makefile for this build).
for mk in Makefile.in Makefile; do
  grep -q 'queue/rd-services.o' "$NS/$mk" \
    || sed -i 's#^\(\s*\)queue/queue.o queue/drop-tail.o \\#&\n\1queue/rd-services.o \\#' "$NS/$mk"
  grep -q 'queue/rd-services.o' "$NS/$mk" || { echo "could not add the object to $mk" >&2; exit 1; }
done

# 3. OTcl defaults of the bound variables: tcpsim's RD defaults (RD_PAPER in
#    python/tcpsim/repro/podlesny/common.py): k 1, 10 % of the buffer to D, recalculation every
#    100 ms, 4096 slots, a window of 1 s + 2 x the class's longest queueing delay.
if ! grep -q 'Queue/RD set k_' "$NS/tcl/lib/ns-default.tcl"; then
  {
    echo ""
    echo "# Queue/RD (peers/ns2/rd/build.sh)"
    for kv in "k_ 1" "d_share_ 0.1" "interval_ 0.1" "counter_slots_ 4096" "counter_timeout_ 1.0" \
              "counter_delay_multiple_ 2" "n_r_ 0" "n_d_ 0" "flow_count_r_ 0" "flow_count_d_ 0"; do
      echo "Queue/RD set $kv"
    done
  } >> "$NS/tcl/lib/ns-default.tcl"
fi

# 4. Incremental rebuild (ns-default.tcl is compiled into gen/ns_tcl.cc by the Makefile).
cd "$NS"
nice -n 10 make ns > "$DEST/logs/rd-make.log" 2>&1 || { tail -40 "$DEST/logs/rd-make.log" >&2; exit 1; }
echo "built $NS/ns"
