#!/usr/bin/env bash
# Build ns-3.17 (the release the gangadhar paper ran) and peers/ns317/gangadhar.cc and
# gangadhar.fig11.cc against it.
#   peers/ns317/setup.sh [SOURCE]
# SOURCE: an ns-3.17 source tree, or a git repository of ns-3 (its tag ns-3.17 is exported).
# Without it, the tag is cloned from the public ns-3 git. Everything goes under $NS317_DIR
# (default /tmp/ns317): src/, build/ (waf's --out), build/bin/gangadhar{,.fig11}. Re-running rebuilds
# only what changed. Needs Python 2.7 for ns-3.17's waf ($NS317_PYTHON, default pyenv's 2.7.18
# or python2) and g++ (tested with g++ 12).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DIR="${NS317_DIR:-/tmp/ns317}"
SRC="$DIR/src"
OUT="$DIR/build"
PY="${NS317_PYTHON:-$HOME/.pyenv/versions/2.7.18/bin/python}"
[ -x "$PY" ] || PY="$(command -v python2)"
UPSTREAM="https://gitlab.com/nsnam/ns-3-dev.git"
mkdir -p "$DIR"

if [ ! -f "$SRC/wscript" ]; then
  if [ $# -ge 1 ] && [ -f "$1/wscript" ]; then
    cp -a "$1" "$SRC"
  elif [ $# -ge 1 ]; then
    # A git repository: export tag ns-3.17 file by file, leaving out blobs the repository
    # lacks (a partial mirror may miss the LTE fading traces, which this build never uses).
    index="$(mktemp)"
    rm -f "$index"
    export GIT_DIR="$1" GIT_INDEX_FILE="$index"
    [ -d "$1/.git" ] && export GIT_DIR="$1/.git"
    git read-tree ns-3.17
    missing="$(git ls-files -s | awk '{print $2}' | git cat-file --batch-check | awk '$2 == "missing" {print $1}')"
    for blob in $missing; do
      git ls-files -s | awk -v b="$blob" '$2 == b {print $4}' | xargs -r git update-index --force-remove
    done
    mkdir -p "$SRC"
    GIT_WORK_TREE="$SRC" git checkout-index -a --prefix="$SRC/"
    rm -f "$index"
    unset GIT_DIR GIT_INDEX_FILE
  else
    git clone --depth 1 --branch ns-3.17 "$UPSTREAM" "$SRC"
  fi
fi

# ns-3.17 is C++98: build it as such, with warnings not fatal. The one change it needs on a
# current system: libxml2's headers (config-store's XmlIo) pull in ICU's C++ API, which needs
# C++11; U_SHOW_CPLUSPLUS_API=0 hides it (ns-3.17 uses only libxml2's C API). No source patch.
export CXXFLAGS="-std=gnu++98 -O2 -Wno-error -fpermissive -DU_SHOW_CPLUSPLUS_API=0"
cd "$SRC"
if [ ! -f "$OUT/c4che/_cache.py" ]; then
  nice -n 10 "$PY" ./waf configure -d release --out="$OUT" --disable-python --disable-tests \
    --disable-examples --enable-modules=core,network,internet,point-to-point,applications
fi
nice -n 10 "$PY" ./waf build -j"${NS317_JOBS:-1}"

mkdir -p "$OUT/bin"
# waf names the libraries libns<VERSION>-<module>: libns3.17-core with a release tarball,
# libns3-dev-core from git (its VERSION file says 3-dev).
version="$(sed -n "s/^VERSION = '\(.*\)'$/\1/p" "$OUT/c4che/_cache.py")"
libs=()
for m in applications internet point-to-point network core; do
  libs+=("-lns$version-$m")
done
for program in gangadhar gangadhar.fig11; do
  if [ ! -x "$OUT/bin/$program" ] || [ "$HERE/$program.cc" -nt "$OUT/bin/$program" ]; then
    # Compiled beside and renamed, so that runs under way keep their binary.
    nice -n 10 g++ -std=gnu++98 -O2 -Wno-deprecated -I"$OUT" "$HERE/$program.cc" \
      -o "$OUT/bin/$program.new" -L"$OUT" -Wl,--disable-new-dtags,-rpath,"$OUT" "${libs[@]}"
    mv "$OUT/bin/$program.new" "$OUT/bin/$program"
  fi
  echo "$OUT/bin/$program"
done
