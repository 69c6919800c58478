#!/usr/bin/env bash
# Builds the monitoring overlay's `prom/prometheus` image (docker-compose.monitoring.yml) from
# Debian's `prometheus` package, as stand-ins.sh builds the node and nginx ones, because no image
# registry is reachable here. A recipe of its own (this file's hash is a label), so changing it
# does not rebuild the other stand-ins. Differences from the real image: docs/deploy.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mirror=http://deb.debian.org/debian
recipe="$(sha256sum "$0" | cut -c1-16)"
work="${RANDGEN_IMAGE_CACHE:-/var/tmp/randgen-image}"
mkdir -p "$work"

image="$(sed -n 's/^ *image: *\(prom\/prometheus:[^ ]*\)$/\1/p' "$root/docker-compose.monitoring.yml")"
image="docker.io/$image"

if [ "$(podman image inspect --format '{{index .Labels "randgen.stand-in"}}' "$image" 2>/dev/null)" != "$recipe" ]; then
  echo "stand-in $image: Debian trixie + prometheus, laid out as the official image" >&2
  dir="$work/prometheus"
  rm -rf "$dir"
  debootstrap --variant=minbase --include=prometheus,wget,ca-certificates trixie "$dir" "$mirror" /usr/share/debootstrap/scripts/sid >&2
  chroot "$dir" apt-get clean
  rm -rf "$dir"/var/lib/apt/lists/* "$dir"/usr/share/doc/* "$dir"/usr/share/man/*
  # As the official image: the server run as nobody with its data in /prometheus, owned by
  # nobody so that a new named volume there is writable; wget for the healthcheck (busybox's there)
  mkdir -p "$dir/prometheus"
  chown 65534:65534 "$dir/prometheus"
  tar -C "$dir" -c . | podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'USER nobody' \
    --change 'WORKDIR /prometheus' \
    --change 'VOLUME ["/prometheus"]' \
    --change 'ENTRYPOINT ["/usr/bin/prometheus"]' \
    --change 'CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]' \
    --change 'EXPOSE 9090' \
    --change "LABEL randgen.stand-in=$recipe" - "$image" >&2
  rm -rf "$dir"
fi
echo "$image"
