#!/usr/bin/env bash
# Builds the farm's container image (deploy/Dockerfile), `npm run image`, with docker where a
# docker engine answers, else with podman (deploy/containers.conf through CONTAINERS_CONF).
# Where no image registry is reachable, it first makes a Debian 13 base with debootstrap from
# this machine's own Debian mirror, and stand-ins for the fleet's Redis, Prometheus and
# PostgreSQL from that base's packages (deploy/standins/). Progress goes to stderr; stdout gets
# only KEY=value lines naming what was built, for `eval "$(npm run --silent image)"`.
# `--remove` removes instead every image this script made (the next build starts cold).
#
#   SATFARM_IMAGE             the image's tag (satfarm:local)
#   SATFARM_BASES             auto (default): the local base if it exists, else the public one
#                             if a registry answers, else a local one; `local`; `registry`
#   SATFARM_BUILD_CA          a CA bundle for npm's TLS, passed as a build secret
#                             (default: the host's bundle, when it exists; empty: none)
#   SATFARM_CONTAINER_ENGINE  docker or podman, instead of the automatic choice
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/lib/debian-mirror.sh

IMAGE=${SATFARM_IMAGE:-satfarm:local}
BASES=${SATFARM_BASES:-auto}
BUILD_CA=${SATFARM_BUILD_CA-/etc/ssl/certs/ca-certificates.crt}
PUBLIC_BASE=debian:trixie-slim
LOCAL_BASE=localhost/satfarm-base:trixie
STANDINS=(redis prometheus postgres)
# How long a registry may take to answer a pull of the public base before it counts as absent.
PROBE_SECONDS=30

log() { echo "image: $*" >&2; }
fail() {
  echo "image: $1" >&2
  exit "${2:-1}"
}

remove=0
case "${1:-}" in
  "") ;;
  --remove) remove=1 ;;
  *) fail "unknown argument '$1' (the only one is --remove)" 2 ;;
esac
case "$BASES" in
  auto | local | registry) ;;
  *) fail "SATFARM_BASES must be auto, local or registry, not '$BASES'" 2 ;;
esac
if [ -n "$BUILD_CA" ] && [ -n "${SATFARM_BUILD_CA:-}" ] && ! [ -r "$BUILD_CA" ]; then
  fail "SATFARM_BUILD_CA: cannot read $BUILD_CA" 2
fi

engine=${SATFARM_CONTAINER_ENGINE:-}
case "$engine" in
  docker | podman) ;;
  "")
    if command -v docker >/dev/null 2>&1 && timeout 20 docker info >/dev/null 2>&1; then
      engine=docker
    elif command -v podman >/dev/null 2>&1; then
      engine=podman
    else
      fail "neither a docker engine nor podman is available (scripts/install-system-deps.sh installs podman)"
    fi
    ;;
  *) fail "SATFARM_CONTAINER_ENGINE must be docker or podman, not '$engine'" 2 ;;
esac
if [ "$engine" = podman ]; then
  export CONTAINERS_CONF=${CONTAINERS_CONF:-$PWD/deploy/containers.conf}
else
  # Build secrets and RUN --mount need BuildKit.
  export DOCKER_BUILDKIT=1
fi

# One build at a time per image store: a second waits rather than making the base twice.
store=docker
if [ "$engine" = podman ]; then store=$(podman info --format '{{.Store.GraphRoot}}'); fi
exec 9>"/var/tmp/satfarm-image.$(printf '%s' "$store" | sha256sum | cut -c1-12).lock"
flock 9

image_exists() { "$engine" image inspect "$1" >/dev/null 2>&1; }
image_id() { "$engine" image inspect --format '{{.Id}}' "$1" 2>/dev/null || true; }

# Builds tag `$1` (the other arguments are the build's), then drops the image the tag named
# before, if the build replaced it and no container or image still uses it.
build_image() {
  local tag=$1 old start=$SECONDS
  shift
  old=$(image_id "$tag")
  "$engine" build -t "$tag" "$@" >&2
  log "built $tag in $((SECONDS - start)) s"
  if [ -n "$old" ] && [ "$old" != "$(image_id "$tag")" ]; then "$engine" rmi "$old" >/dev/null 2>&1 || true; fi
}

# The image, the stand-ins, the local base and every image built on it (cached build steps
# included), children before parents. Images of other projects stay, and so does an image a
# container uses: no container is removed.
remove_images() {
  local base_layer ids=() id layer left kept=0
  base_layer=$("$engine" image inspect --format '{{index .RootFS.Layers 0}}' "$LOCAL_BASE" 2>/dev/null || true)
  local names=("$IMAGE" "$LOCAL_BASE") name
  for name in "${STANDINS[@]}"; do names+=("localhost/satfarm-$name:trixie"); done
  for name in "${names[@]}"; do ids+=("$(image_id "$name")"); done
  if [ -n "$base_layer" ]; then
    # Built on the local base: their first layer is the base's only one.
    while read -r id layer; do [ "$layer" = "$base_layer" ] && ids+=("$id"); done < <(
      "$engine" images -a -q --no-trunc | sort -u |
        xargs -r "$engine" image inspect --format '{{.Id}} {{index .RootFS.Layers 0}}' 2>/dev/null
    )
  fi
  mapfile -t ids < <(printf '%s\n' "${ids[@]}" | grep -v '^$' | sort -u)
  # An image goes once nothing is built on it; passes repeat while any goes.
  while [ ${#ids[@]} -gt 0 ]; do
    left=()
    for id in "${ids[@]}"; do
      image_exists "$id" || continue
      "$engine" rmi "$id" >/dev/null 2>&1 || left+=("$id")
    done
    [ ${#left[@]} -eq ${#ids[@]} ] && kept=${#left[@]} && break
    ids=("${left[@]}")
  done
  if [ "$kept" -gt 0 ]; then
    log "kept $kept images that containers use, or that such images are built on: $(printf "%.12s " "${left[@]}")"
  else
    log "removed the image, the stand-ins, the local base and the build steps cached on it"
  fi
}

if [ $remove -eq 1 ]; then
  remove_images
  exit 0
fi

# A Debian 13 minbase, trimmed like the public slim image: no documentation or translations
# installed by later packages, no downloaded packages kept, and no services started by them.
make_local_base() {
  if [ "$(id -u)" -ne 0 ]; then fail "making the local base needs root (debootstrap)"; fi
  local mirror root start=$SECONDS
  mirror=$(debian_mirror)
  root=$(mktemp -d /var/tmp/satfarm-base.XXXXXX)
  trap 'rm -rf "$root"' EXIT
  log "making $LOCAL_BASE with debootstrap (Debian 13, minbase)"
  debootstrap --variant=minbase trixie "$root" "$mirror" >&2
  cat >"$root/etc/dpkg/dpkg.cfg.d/satfarm-slim" <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
CFG
  cat >"$root/etc/apt/apt.conf.d/satfarm-slim" <<'CFG'
APT::Keep-Downloaded-Packages "false";
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
CFG
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod +x "$root/usr/sbin/policy-rc.d"
  find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  rm -rf "$root"/usr/share/{man,info,locale}/* "$root"/var/cache/apt/*.bin \
    "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/var/log/*.log
  tar -C "$root" --numeric-owner -c . |
    "$engine" import \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change 'CMD ["/bin/bash"]' - "$LOCAL_BASE" >/dev/null
  rm -rf "$root"
  trap - EXIT
  log "made $LOCAL_BASE in $((SECONDS - start)) s"
}

if [ "$BASES" = auto ]; then
  if image_exists "$LOCAL_BASE"; then
    BASES=local
  elif timeout "$PROBE_SECONDS" "$engine" pull "$PUBLIC_BASE" >/dev/null 2>&1; then
    BASES=registry
  else
    log "no registry answers for $PUBLIC_BASE: using local bases"
    BASES=local
  fi
fi

if [ "$BASES" = local ]; then
  base=$LOCAL_BASE
  image_exists "$LOCAL_BASE" || make_local_base
  for name in "${STANDINS[@]}"; do
    build_image "localhost/satfarm-$name:trixie" --build-arg "BASE_IMAGE=$base" \
      -f "deploy/standins/$name/Containerfile" "deploy/standins/$name"
  done
else
  base=$PUBLIC_BASE
fi

build=(-f deploy/Dockerfile --build-arg "BASE_IMAGE=$base")
if [ -n "$BUILD_CA" ] && [ -r "$BUILD_CA" ]; then build+=(--secret "id=npm-ca,src=$BUILD_CA"); fi
log "building $IMAGE on $base with $engine"
build_image "$IMAGE" "${build[@]}" .

emit() { printf '%s=%q\n' "$1" "$2"; }
emit SATFARM_CONTAINER_ENGINE "$engine"
[ "$engine" = podman ] && emit CONTAINERS_CONF "$CONTAINERS_CONF"
emit SATFARM_IMAGE "$IMAGE"
emit SATFARM_BASE_IMAGE "$base"
if [ "$BASES" = local ]; then
  emit SATFARM_STANDINS 1
  for name in "${STANDINS[@]}"; do emit "SATFARM_${name^^}_IMAGE" "localhost/satfarm-$name:trixie"; done
else
  emit SATFARM_STANDINS 0
  for name in "${STANDINS[@]}"; do emit "SATFARM_${name^^}_IMAGE" ""; done
fi
