#!/usr/bin/env bash
# Install the Debian packages some tests drive from outside Python: chromium (the HTML report test
# opens the report in headless Chromium) and tshark (the pcap test checks tcpsim's captures with
# Wireshark's dissectors). Does nothing when both are present or when this is not a Debian-like
# system (those tests then skip, saying why). Needs root or sudo to install.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v tshark >/dev/null 2>&1 || missing+=(tshark)
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup-system: no apt-get here; tests needing ${missing[*]} will skip" >&2
    exit 0
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then as_root=(sudo -n); else
        echo "setup-system: not root and no sudo; install ${missing[*]} to run every test" >&2
        exit 0
    fi
fi
echo "setup-system: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
# tshark asks whether non-root users may capture; the answer does not matter for reading files.
echo "wireshark-common wireshark-common/install-setuid boolean false" | "${as_root[@]}" debconf-set-selections
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
