# Sourced by the set-up and image scripts: the Debian archive URI this machine's own apt
# configuration uses for its main suite, so nothing names a mirror of its own.

# Prints the URI, or fails with a message when apt names no Debian archive.
debian_mirror() {
  local mirror="" file
  for file in /etc/apt/sources.list.d/*.sources; do
    [ -f "$file" ] || continue
    mirror=$(awk '
      /^URIs:/ { uri=$2 }
      /^Suites:/ { for (i=2;i<=NF;i++) if ($i ~ /^(bookworm|trixie)$/ && uri !~ /security/) { print uri; exit } }
    ' "$file")
    [ -n "$mirror" ] && break
  done
  if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
    mirror=$(awk '$1=="deb" && $3 ~ /^(bookworm|trixie)$/ && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list)
  fi
  if [ -z "$mirror" ]; then
    echo "cannot find the Debian archive in this machine's apt configuration" >&2
    return 1
  fi
  printf '%s\n' "$mirror"
}
