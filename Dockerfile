# oddsmaker in a container: the market-making daemon, built in one stage and run from a slim one.
#
#   docker build -t oddsmaker .
#   docker run -d --name oddsmaker --stop-timeout 30 -v oddsmaker-data:/app/data oddsmaker
#   docker exec oddsmaker node dist/src/cli/main.js status      # the status table, from inside
#
# What this file keeps:
# - build stage: the full dependency tree from the lockfile (npm ci), the native better-sqlite3
#   addon compiled here from source against this stage's Node headers (npm_config_nodedir: no
#   header download, no prebuilt binary fetched), TypeScript compiled to dist/, then the dev
#   dependencies pruned; the compiler, headers and toolchain never reach the runtime stage;
# - runtime stage: the same Node base without a toolchain, only dist/src, dist/strategies, the
#   production node_modules and config/; it runs as the unprivileged user `oddsmaker` (uid 10001);
# - /app/data is a volume: the ledger (SQLite) and recordings live there (config ledger.path
#   is relative to /app); mount a named volume or a host directory writable by uid 10001;
# - the ops server (/healthz, /metrics, /status, operator actions) listens on config
#   health.host:health.port, 127.0.0.1:9464 by default: HEALTHCHECK probes it from inside the
#   container. To scrape or query it from outside, mount a config with "health": {"host": "0.0.0.0"}
#   and publish the port (-p 9464:9464). Operator actions need ODDSMAKER_OPERATOR_TOKEN in the
#   environment (pass it with -e or a secret, never in the config);
# - STOPSIGNAL SIGTERM: the daemon stops quoting, cancels every live order through the rate
#   limiter, drains in-flight requests and flushes the ledger, bounded by orders.shutdownTimeoutMs
#   (20 s by default). The runtime's stop grace must be longer than that, or the engine's SIGKILL
#   cuts the cancel-all short and leaves orders resting: use at least 30 s
#   (`docker run --stop-timeout 30`, `docker stop -t 30`, `podman stop -t 30`, compose
#   `stop_grace_period: 30s`, Kubernetes `terminationGracePeriodSeconds: 30`), and raise it with
#   orders.shutdownTimeoutMs. The label oddsmaker.stop-grace-seconds says the same to tooling.
#
# The base image is a build argument, so an offline machine can tag a locally built Node 20 image
# (node in /usr/local/bin, its headers in /usr/local/include/node, as the official images lay
# them out) with this name: see scripts/container-smoke.sh.
ARG NODE_IMAGE=node:20-bookworm-slim

# ------------------------------------------------------------------------------------------ build
FROM ${NODE_IMAGE} AS build
# node-gyp's toolchain for better-sqlite3 (build stage only).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /build
# Compile native addons from source against the headers of the Node that will run them.
ENV npm_config_build_from_source=true \
    npm_config_nodedir=/usr/local \
    npm_config_fund=false \
    npm_config_audit=false \
    npm_config_update_notifier=false
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json ./
COPY src ./src
COPY strategies ./strategies
# Compile, drop the dev dependencies, check the addon loads, then keep only the compiled addon of
# better-sqlite3 (its C sources and object files are build-only).
RUN npm run build \
 && npm prune --omit=dev \
 && node -e "const D=require('better-sqlite3'); const db=new D(':memory:'); if (db.prepare('select 41+1 as x').get().x !== 42) process.exit(1); db.close()" \
 && cd node_modules/better-sqlite3 \
 && mv build/Release/better_sqlite3.node /tmp/better_sqlite3.node \
 && rm -rf build deps src \
 && mkdir -p build/Release \
 && mv /tmp/better_sqlite3.node build/Release/better_sqlite3.node

# ---------------------------------------------------------------------------------------- runtime
FROM ${NODE_IMAGE} AS runtime
LABEL org.opencontainers.image.title="oddsmaker" \
      org.opencontainers.image.description="Market-making daemon for prediction-market order books" \
      oddsmaker.stop-grace-seconds="30"
ENV NODE_ENV=production \
    ODDSMAKER_HEALTH_URL=http://127.0.0.1:9464/healthz
WORKDIR /app
RUN groupadd --system --gid 10001 oddsmaker \
 && useradd --system --uid 10001 --gid oddsmaker --home-dir /app --no-create-home --shell /usr/sbin/nologin oddsmaker \
 && mkdir -p /app/data \
 && chown oddsmaker:oddsmaker /app/data
COPY --from=build /build/package.json ./package.json
COPY --from=build /build/node_modules ./node_modules
COPY --from=build /build/dist/src ./dist/src
COPY --from=build /build/dist/strategies ./dist/strategies
COPY config ./config
VOLUME ["/app/data"]
USER oddsmaker:oddsmaker
EXPOSE 9464
# 200 only once startup reconciliation is done and market data is fresh (see src/runtime/ops/health.ts).
# ODDSMAKER_HEALTH_URL follows a config that moves the ops server to another port.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(process.env.ODDSMAKER_HEALTH_URL).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["run", "--config", "config/default.json"]
