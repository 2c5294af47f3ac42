#!/usr/bin/env bash
# Runs ns-2's own validation suites (tcl/test/test-all-<name>) against their
# stored reference outputs with the ns built by setup.sh. Needs
# libperl4-corelibs-perl (getopts.pl). Default suites: the TCP/RED ones the
# twins rely on. Prints one line per suite: tests, differing, crashes.
#   peers/ns2/validate.sh [suite ...]      (NS2_ROOT default /tmp/ns2)
set -uo pipefail
NS2_ROOT="${NS2_ROOT:-/tmp/ns2}"
export TCL_LIBRARY="$NS2_ROOT/src/tcl8.5.10/library"
cd "$NS2_ROOT/src/ns-2.35/tcl/test" || exit 1
[ $# -gt 0 ] || set -- newreno rbp tcpVariants red tcp
for t in "$@"; do
    rm -f "test-output-$t"/*.test
    out="$(mktemp)"
    nice -n 10 "./test-all-$t" quiet >"$out" 2>&1; rc=$?
    echo "$t rc=$rc tests=$(grep -c '^Running test' "$out") differ=$(grep -c 'differs' "$out") crashes=$(grep -c 'Segmentation' "$out")"
    rm -f "$out"
done
