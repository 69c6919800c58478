# syntax=docker/dockerfile:1
# randgen production image: the bundled service (dist/server.js) on a Node LTS runtime, production dependencies
# only, non-root, read-only friendly (writes nothing to disk).

# The Node.js release the image runs, the one CI tests under: .node-version's (Active LTS). Docker
# cannot read that file here, so test/deploy/image.test.ts fails if the two drift apart.
ARG NODE_IMAGE=node:26.12.1-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build.ts scripts/compile-schemas.ts scripts/page-bundle.ts ./scripts/
COPY src ./src
COPY plugins ./plugins
COPY schemas ./schemas
COPY recipes ./recipes
# The page's sources: the build bundles them into dist/server.js (scripts/page-bundle.ts)
COPY web ./web
RUN npm run build

FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
# No install script runs, so the native addons come prebuilt: bcrypt's binary inside its package
# (prebuilds/), @node-rs/argon2's as the optional dependency the lockfile records for this
# platform and libc (@node-rs/argon2-linux-x64-gnu on this Debian base). dist/pool-thread.js
# loads both from node_modules (scripts/build.ts leaves them out of the bundle).
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force

FROM ${NODE_IMAGE}
# V8's heap, sized for 256 MiB of the service's own (docs/performance.md, "Memory"): Node >= 24 sizes
# its heap from the cgroup, and on 26 that limit came out above the container's (nodejs/node#64646),
# so a heap that kept growing would be OOM-killed before V8 collected it. --max-old-space-size=128
# (MiB): ~10x what the service holds (idle ~15 MB of heap; under the bench's million requests
# under 40 MB); with the young generation and ~70 MB outside the heap (code, OpenSSL, buffers)
# it stays under 256 MiB. --max-semi-space-size=8 (MiB): V8 lets its young generation grow under
# load; one server under the benchmark's rows then its abuse bodies peaked at 297 MB uncapped and
# 136 MB capped on Node 24 (Node 20: 134 and 104 MB), at the same CPU per request. Compose's limit
# is 384M: those 256 MiB plus one password hash at a time (CONTRACT §12.1), whose Argon2id memory
# (up to 64 MiB) is outside V8's heap (docs/deploy.md, "Memory limit and V8's heap").
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-old-space-size=128 --max-semi-space-size=8" \
    HOST=0.0.0.0 \
    PORT=3000
# CONTRACT §9: in a container the metrics listener (when METRICS_PORT is set) binds every
# address, so a scraper on the container network reaches it; outside one it stays on loopback
ENV METRICS_HOST=0.0.0.0
WORKDIR /app
# Owned by root and not writable by the service user: the code cannot be changed at run time
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# src/version.ts reads the version from package.json one level above dist/
COPY package.json ./
COPY deploy/healthcheck.mjs ./deploy/healthcheck.mjs
# The node user of the official image (uid 1000); deploy/k8s/deployment.yaml runs as the same uid
USER node
EXPOSE 3000
# No curl in the image: Node itself asks /api/health
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "deploy/healthcheck.mjs"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/server.js"]
