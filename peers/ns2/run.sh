#!/usr/bin/env bash
# Run an ns-2 Tcl script with the ns-2.35 built by peers/ns2/setup.sh.
#   peers/ns2/run.sh script.tcl [args...]     (NS2_ROOT default /tmp/ns2)
# Builds first if the binary is missing. TCL_LIBRARY points at the bundled
# tcl8.5.10 library so the static ns finds init.tcl.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NS2_ROOT="${NS2_ROOT:-/tmp/ns2}"
NS="$NS2_ROOT/src/ns-2.35/ns"
[ -x "$NS" ] || "$HERE/setup.sh" >&2
export TCL_LIBRARY="$NS2_ROOT/src/tcl8.5.10/library"
export LD_LIBRARY_PATH="$NS2_ROOT/src/otcl-1.14:$NS2_ROOT/src/lib:${LD_LIBRARY_PATH:-}"
[ $# -ge 1 ] || { echo "usage: $0 script.tcl [args...]" >&2; exit 2; }
script="$1"; shift
[ -f "$script" ] || script="$HERE/$script"
exec "$NS" "$script" "$@"
