#!/usr/bin/env bash
# Fetch htsim (Broadcom/csg-htsim) at a pinned commit, build its sim/ library and the twins.
#   peers/htsim/build.sh [twin ...]        (default: every peers/htsim/*.cpp)
# HTSIM_DIR (default /tmp/htsim): the source goes to $HTSIM_DIR/src, binaries to $HTSIM_DIR/bin.
# HTSIM_REPO: where to fetch from (default https://github.com/Broadcom/csg-htsim; a local bare
# git directory works too). HTSIM_COMMIT: the commit (default the one the docs were made with).
# Only sim/ is extracted: the repository's experiments/ hold large files the build does not need.
# A twin is rebuilt only when its source or lib/*.h is newer than its binary.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DIR="${HTSIM_DIR:-/tmp/htsim}"
REPO="${HTSIM_REPO:-https://github.com/Broadcom/csg-htsim}"
COMMIT="${HTSIM_COMMIT:-841d9e7be46bb968eece766aa4b6c044c7799f67}"
SRC="$DIR/src"
BIN="$DIR/bin"
if [ ! -f "$SRC/sim/Makefile" ]; then
  mkdir -p "$SRC"
  if [ -d "$REPO" ]; then
    git --git-dir="$REPO" archive "$COMMIT" sim | tar -x -C "$SRC"
  else
    git init -q "$DIR/git"
    git -C "$DIR/git" fetch -q --depth 1 "$REPO" "$COMMIT"
    git -C "$DIR/git" archive FETCH_HEAD sim | tar -x -C "$SRC"
  fi
  echo "$COMMIT" > "$SRC/COMMIT"
fi
if [ ! -f "$SRC/sim/libhtsim.a" ]; then
  echo "building libhtsim.a" >&2
  nice -n 10 make -C "$SRC/sim" -j2 libhtsim.a >&2
fi
mkdir -p "$BIN"
twins=("$@")
[ ${#twins[@]} -gt 0 ] || twins=($(cd "$HERE" && ls *.cpp | sed 's/\.cpp$//'))
for t in "${twins[@]}"; do
  src="$HERE/$t.cpp"; out="$BIN/$t"
  if [ -x "$out" ] && [ "$out" -nt "$src" ] && [ -z "$(find "$HERE/lib" -newer "$out" -name '*.h')" ]; then
    continue
  fi
  echo "building $t" >&2
  nice -n 10 g++ -std=c++17 -O2 -Wall -I"$HERE" -I"$SRC/sim" "$src" "$SRC/sim/libhtsim.a" -o "$out"
done
