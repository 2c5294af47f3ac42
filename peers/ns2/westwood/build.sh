#!/usr/bin/env bash
# Build ns-2.35 with the public UCLA/Politecnico TCP Westwood agents (Agent/TCP/Westwood,
# Agent/TCP/WestwoodNR) into a copy of a built stock ns-2.35 tree.
#
#   peers/ns2/westwood/build.sh [STOCK_DIR [DEST_DIR]]
#
# STOCK_DIR (default /tmp/ns2): a finished stock build (peers/ns2/setup.sh; src/ns-2.35/ns).
# DEST_DIR  (default /tmp/ns2w): where the copy with the agents goes; its ns binary is
#           DEST_DIR/src/ns-2.35/ns.
# WESTWOOD_MIRROR: a git clone of github.com/tomky/ns2-11n (default: the project's mirror);
# the agent sources are taken from commit $COMMIT (see README.md for provenance and licence).
# The agents' code is not stored in this project: this script reads it from that clone.
set -euo pipefail
STOCK=${1:-/tmp/ns2}
DEST=${2:-/tmp/ns2w}
MIRROR=${WESTWOOD_MIRROR:-/work/.mirror/tomky+ns2-11n/repo}
COMMIT=e83ac36806daa5fc89bcc06d0d40fcc69505522f
NS=$DEST/src/ns-2.35

[ -x "$STOCK/src/ns-2.35/ns" ] || { echo "no built ns-2.35 in $STOCK" >&2; exit 1; }
if [ ! -d "$DEST" ]; then
  cp -a "$STOCK" "$DEST"
fi

# 1. The four agent files, as published.
GITDIR=$MIRROR
[ -d "$MIRROR/.git" ] && GITDIR=$MIRROR/.git
for f in tcp-westwood.cc tcp-westwood.h tcp-westwood-nr.cc tcp-westwood-nr.h; do
  git --git-dir="$GITDIR" show "$COMMIT:tcp/$f" > "$NS/tcp/$f"
done

# 2. Remove the debugging output the published copies print on every ACK / every agent
#    (tcp-westwood.cc: printf("1\n") ... printf("7\n"), two idle-interval printfs;
#    tcp-westwood-nr.cc: "Westwood New Reno binding done!"). Only whole-line printf
#    statements outside comments are removed; no computation changes.
before=$(wc -l < "$NS/tcp/tcp-westwood.cc")
sed -i -E '/^[[:space:]]*printf\("([0-9]|6 %d|!%d|idle_intervals = %d\\n", idle)/d' "$NS/tcp/tcp-westwood.cc"
after=$(wc -l < "$NS/tcp/tcp-westwood.cc")
[ $((before - after)) -eq 10 ] || { echo "expected to remove 10 debug printf lines, removed $((before - after))" >&2; exit 1; }
sed -i -E '/^[[:space:]]*printf\("Westwood New Reno binding done/d' "$NS/tcp/tcp-westwood-nr.cc"

# 3. Objects into the build (Makefile.in for reconfigures, Makefile for this build).
for mk in Makefile.in Makefile; do
  grep -q 'tcp/tcp-westwood.o' "$NS/$mk" \
    || sed -i 's#^\(\s*\)tcp/tcp-newreno.o \\#&\n\1tcp/tcp-westwood.o tcp/tcp-westwood-nr.o \\#' "$NS/$mk"
  grep -q 'tcp/tcp-westwood.o' "$NS/$mk" || { echo "could not add the objects to $mk" >&2; exit 1; }
done

# 4. OTcl defaults of the variables the agents bind (the values the agents' own distribution
#    set in ns-default.tcl; filter_type_ 3 is the Tustin filter of the paper, tau_ 1.0 s is the
#    distribution's default, scripts set tau_ 0.5 as casetti Sec. 4 does).
if ! grep -q 'Agent/TCP/Westwood set tau_' "$NS/tcl/lib/ns-default.tcl"; then
  {
    echo ""
    echo "# TCP Westwood agents (peers/ns2/westwood/build.sh)"
    for a in Westwood WestwoodNR; do
      for kv in "current_bwe_ 0" "last_bwe_sample_ 0" "unaccounted_ 0" "fr_a_ 1" \
                "min_rtt_estimate 10000" "myseqno_ 1" "lastackno_ 0" "lastackrx_ 0" \
                "fr_alpha_ 0.9" "filter_type_ 3" "tau_ 1.0"; do
        echo "Agent/TCP/$a set $kv"
      done
    done
    for kv in "newreno_changes_ 0" "newreno_changes1_ 0" "partial_window_deflation_ 0" "exit_recovery_fix_ 0"; do
      echo "Agent/TCP/WestwoodNR set $kv"
    done
  } >> "$NS/tcl/lib/ns-default.tcl"
fi

# 5. Incremental rebuild (ns-default.tcl is compiled into gen/ns_tcl.cc by the Makefile).
cd "$NS"
nice -n 5 make -j2 ns > "$DEST/logs/westwood-make.log" 2>&1 || { tail -40 "$DEST/logs/westwood-make.log" >&2; exit 1; }
echo "built $NS/ns"
