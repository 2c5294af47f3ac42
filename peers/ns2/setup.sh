#!/usr/bin/env bash
# Idempotent build of ns-2.35 (the ns-2 reference peer), without nam/xgraph.
#
# Source: GitHub snapshot "paultsr/ns-allinone-2.35", commit
#   7c93412391263673ff459664244bd395930f2ff0
# = stock ns-allinone-2.35 (tcl8.5.10, tk8.5.10, otcl-1.14, tclcl-1.20,
# ns-2.35) plus the MannaSim wireless-sensor add-on (mannasim/ objects in
# Makefile.in, extra defaults at the end of tcl/lib/ns-default.tcl, small
# hooks in common/packet.h, ns-process.h, apps/udp.cc, aodv/) and the
# well-known linkstate/ls.h "this->erase" fix already applied. tcp/, queue/,
# link/ and the TCP defaults are byte-identical to those in
# idmidr/ns-allinone-2.35 (checked by blob hash), i.e. stock.
# Three blobs are missing from the stored snapshot (nam-1.15/ex/lantest2.nam,
# ns-2.35/tcl/ex/pi/picoeff.dat.gz, ns-2.35/tcl/mobility/scene/scen-1500x300-60-0-20-2);
# none is needed, so they are excluded from the archive (git archive still
# prints "error: invalid object ... lantest2.nam" while walking the tree and
# exits 0; the message is harmless).
#
# Usage:  NS2_GIT=<git dir of the snapshot> peers/ns2/setup.sh
#   NS2_GIT  required: the git directory that fetching github:paultsr/ns-allinone-2.35 gives
#   NS2_ROOT default: /tmp/ns2 ; the tree goes to $NS2_ROOT/src, ns to
#            $NS2_ROOT/src/ns-2.35/ns (run.sh finds it there)
#   FORCE=1  wipe and rebuild everything
# apt packages (Debian 12): build-essential libx11-dev libxt-dev
#   (tk8.5.10 is built statically and needs the X11 headers; nothing X is
#   used at run time: ns is built with -DNO_TK).
# Compiler fixes for gcc 12:  CC="gcc -fcommon"  CXX="g++ -std=gnu++98 -fpermissive"
# (no source change needed to compile). One source patch, patches/,
# removes a MannaSim write that corrupts memory in header-stripped scripts.
# ns-2.35's configure leaves CCOPT empty, so ns itself is compiled without
# optimisation (tcl/tk/otcl/tclcl get -O2).
# Build time on a 2-core VM shared with other jobs (load ~8): 10 min 14 s wall in all
# (tcl 152 s, tk 117 s, otcl 15 s, tclcl 11 s, ns 295 s).
# ns-2's own validation scripts (tcl/test/test-all-*) additionally need the
# Perl 4 libraries: apt-get install libperl4-corelibs-perl (getopts.pl).
set -euo pipefail

# The script's folder (patches/), found before the build changes directory.
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NS2_ROOT="${NS2_ROOT:-/tmp/ns2}"
: "${NS2_GIT:?set NS2_GIT to the bare git directory of the fetched snapshot github:paultsr/ns-allinone-2.35}"
NS2_COMMIT="7c93412391263673ff459664244bd395930f2ff0"
SRC="$NS2_ROOT/src"
LOG="$NS2_ROOT/logs"
JOBS="${JOBS:-2}"
export CC="gcc -fcommon"
export CXX="g++ -std=gnu++98 -fpermissive"
NICE="nice -n 10"

mkdir -p "$NS2_ROOT" "$LOG"

# ---- 0. apt packages -------------------------------------------------------
need=()
for p in build-essential libx11-dev libxt-dev; do
    dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ "${#need[@]}" -gt 0 ]; then
    echo "[ns2-setup] apt-get install ${need[*]}" >&2
    apt-get install -y "${need[@]}"
fi

# ---- 1. source tree ----------------------------------------------------------
if [ "${FORCE:-0}" = 1 ]; then rm -rf "$SRC"; fi
if [ ! -f "$SRC/.extracted" ]; then
    rm -rf "$SRC"; mkdir -p "$SRC"
    got="$(git --git-dir="$NS2_GIT" rev-parse HEAD)"
    [ "$got" = "$NS2_COMMIT" ] || echo "[ns2-setup] WARNING: snapshot HEAD $got != $NS2_COMMIT" >&2
    git --git-dir="$NS2_GIT" archive "$NS2_COMMIT" -- \
        tcl8.5.10 tk8.5.10 otcl-1.14 tclcl-1.20 ns-2.35 \
        ':(exclude)ns-2.35/tcl/ex/pi/picoeff.dat.gz' \
        ':(exclude)ns-2.35/tcl/mobility/scene/scen-1500x300-60-0-20-2' \
        | tar -x -C "$SRC"
    touch "$SRC/.extracted"
fi
cd "$SRC"
CUR="$SRC"

# ---- 1b. source patches (patches/*.patch, applied once) ----------
# 01: the MannaSim add-on's Packet::alloc() writes HDR_RCA(p)->meta_size_ on
# every recycled packet; scripts that call remove-all-packet-headers (ns-2's
# own tcl/test suites) have no RCA header, so that write lands outside the
# header buffer (valgrind: invalid write in Packet::alloc; SIGSEGV in
# TTLChecker::recv in test-all-newreno/newreno). With all headers present the
# write is dead (init() zeroes the headers right after), so removing it
# changes nothing else.
for pf in "$HERE"/patches/*.patch; do
    [ -f "$pf" ] || continue
    if patch -d "$SRC" -p1 -R --dry-run -s -f < "$pf" >/dev/null 2>&1; then
        continue  # already applied
    fi
    echo "[ns2-setup] applying $(basename "$pf")" >&2
    patch -d "$SRC" -p1 -s -f < "$pf"
    # ns has no header dependency tracking: rebuild it from clean
    rm -f "$SRC/.done-ns"
    if [ -f "$SRC/ns-2.35/Makefile" ]; then (cd "$SRC/ns-2.35" && make clean >/dev/null 2>&1 || true); fi
done

stage() {  # stage NAME DIR CMD...   (runs once; stamp file marks success)
    local name="$1" dir="$2"; shift 2
    if [ -f "$SRC/.done-$name" ]; then echo "[ns2-setup] $name: done" >&2; return; fi
    echo "[ns2-setup] $name: building (log $LOG/$name.log)" >&2
    local t0=$SECONDS
    ( cd "$dir" && eval "$@" ) >"$LOG/$name.log" 2>&1 || {
        echo "[ns2-setup] $name FAILED; tail of $LOG/$name.log:" >&2; tail -30 "$LOG/$name.log" >&2; exit 1; }
    echo "[ns2-setup] $name: ok in $((SECONDS - t0)) s" >&2
    touch "$SRC/.done-$name"
}

# ---- 2. tcl / tk (static, installed into the allinone root like ./install) --
stage tcl "$SRC/tcl8.5.10/unix" \
    "./configure --enable-gcc --disable-shared --prefix=$CUR && $NICE make -j$JOBS && make install && make install-private-headers"
stage tk "$SRC/tk8.5.10/unix" \
    "./configure --enable-gcc --disable-shared --disable-xft --disable-xss --prefix=$CUR --with-tcl=$SRC/tcl8.5.10/unix && $NICE make -j$JOBS && make install && make install-private-headers"
export PATH="$CUR/bin:$PATH"
export LD_LIBRARY_PATH="$CUR/otcl-1.14:$CUR/lib:${LD_LIBRARY_PATH:-}"

# ---- 3. otcl, tclcl, ns (same configure lines as the allinone ./install) ----
stage otcl "$SRC/otcl-1.14" \
    "./configure --with-tcl-ver=8.5 --with-tk-ver=8.5 && $NICE make"
stage tclcl "$SRC/tclcl-1.20" \
    "./configure --with-otcl=../otcl-1.14 --with-tcl-ver=8.5 --with-tk-ver=8.5 && $NICE make"
stage ns "$SRC/ns-2.35" \
    "./configure --with-otcl=../otcl-1.14 --with-tclcl=../tclcl-1.20 --with-tcl-ver=8.5 --with-tk-ver=8.5 && $NICE make -j$JOBS"

[ -x "$SRC/ns-2.35/ns" ] || { echo "[ns2-setup] ns binary missing" >&2; exit 1; }
echo "[ns2-setup] ns at $SRC/ns-2.35/ns" >&2
