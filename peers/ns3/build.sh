#!/usr/bin/env bash
# Build the ns-3 twins against the ns3==3.44.post0 pip wheel.
#   peers/ns3/build.sh [twin ...]        (default: every peers/ns3/*.cc)
# NS3_VENV (default /tmp/ns3venv) is created with the wheel if missing. Binaries go to
# $NS3_TWIN_BIN (default /tmp/ns3-twins/bin); a twin is rebuilt only when its source or
# lib/*.h is newer than its binary.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="${NS3_VENV:-/tmp/ns3venv}"
BIN="${NS3_TWIN_BIN:-/tmp/ns3-twins/bin}"
if [ ! -d "$VENV" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install ns3==3.44.post0
fi
WHEEL="$("$VENV/bin/python" -c 'import importlib.util, os; print(os.path.dirname(importlib.util.find_spec("ns3").origin or "") or list(importlib.util.find_spec("ns3").submodule_search_locations)[0])')"
LIB="$WHEEL/lib64"
mkdir -p "$BIN"
twins=("$@")
[ ${#twins[@]} -gt 0 ] || twins=($(cd "$HERE" && ls *.cc | sed 's/\.cc$//'))
for t in "${twins[@]}"; do
  src="$HERE/$t.cc"; out="$BIN/$t"
  if [ -x "$out" ] && [ "$out" -nt "$src" ] && [ -z "$(find "$HERE/lib" -newer "$out" -name '*.h')" ]; then
    continue
  fi
  echo "building $t" >&2
  nice -n 5 g++ -std=c++20 -O2 -DNS3_BUILD_PROFILE_RELEASE -DNS3_LOG_ENABLE -DNS3_ASSERT_ENABLE \
    -I"$HERE" -I"$WHEEL/include" "$src" -o "$out" -L"$LIB" -Wl,-rpath,"$LIB" \
    -lns3.44-core -lns3.44-network -lns3.44-internet -lns3.44-point-to-point \
    -lns3.44-applications -lns3.44-traffic-control -lns3.44-stats -lns3.44-bridge
done
