#!/usr/bin/env bash
# Container smoke test: builds the image from the Dockerfile, starts it in sandbox mode (the
# bundled simulator in-process), waits for /healthz to answer 200, checks the image's own
# HEALTHCHECK passes and that quotes are resting, stops it with the image's STOPSIGNAL (SIGTERM)
# inside a 30 s grace, then checks the exit was clean (code 0, not killed) and that no order was
# left live: the daemon's last log lines (cancel-all: remaining 0, not timed out) and its ledger,
# read back from the data volume (no order open). Prints one PASS/FAIL line at the end.
#
# Engine: podman (Docker's engine does not run here), with runc: ENGINE="podman --runtime runc".
# Podman needs `default_ulimits = []` under [containers] in /etc/containers/containers.conf on this
# machine. Build and run use the host's network (no bridge networking needed; the ops server and
# the in-process simulator listen on 127.0.0.1 at a free port chosen here). Podman schedules the
# periodic HEALTHCHECK with systemd timers, which this machine does not run (podman's complaints
# go to $WORK/engine.log): the script runs the image's check itself with `podman healthcheck run`.
#
# No image registry is reachable here, so when the Dockerfile's base image (NODE_IMAGE,
# node:20-bookworm-slim) is not present locally it is built: a minimal Debian bookworm from
# Debian's packages (debootstrap --variant=minbase), plus this machine's Node 20 binary, headers
# and npm laid out as the official image does (/usr/local/bin, /usr/local/include/node,
# /usr/local/lib/node_modules/npm), imported and tagged with the base's name. Set
# LOCAL_BASE=never to require a real base image instead, LOCAL_BASE=always to rebuild it. The
# local base also carries this machine's extra certificate authorities (its egress proxy's), so
# that npm and apt inside the build reach their registries as the machine itself does.
#
# Environment: IMAGE (default oddsmaker:smoke), NODE_IMAGE, ENGINE, WORK (scratch dir, default
# /var/tmp/oddsmaker-smoke), KEEP=1 (keep the container and volume for inspection).
set -euo pipefail
cd "$(dirname "$0")/.."

ENGINE=${ENGINE:-podman --runtime runc}
IMAGE=${IMAGE:-oddsmaker:smoke}
NODE_IMAGE=${NODE_IMAGE:-node:20-bookworm-slim}
LOCAL_BASE=${LOCAL_BASE:-auto}
WORK=${WORK:-/var/tmp/oddsmaker-smoke}
NAME=oddsmaker-smoke-$$
VOLUME=oddsmaker-smoke-data-$$
TOKEN=smoke-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
STOP_GRACE=30
mkdir -p "$WORK"

say() { printf '[smoke] %s\n' "$*"; }
fail() { printf '[smoke] FAIL: %s\n' "$*"; echo "container smoke: FAIL ($*)"; exit 1; }
engine() { $ENGINE "$@"; }
# The base's fully qualified name (podman keeps short names under docker.io/library).
qualified() { case "$1" in */*) echo "$1" ;; *) echo "docker.io/library/$1" ;; esac; }

cleanup() {
  local rc=$?
  if [ "${KEEP:-0}" != 1 ]; then
    engine rm -f "$NAME" >/dev/null 2>&1 || true
    engine volume rm -f "$VOLUME" >/dev/null 2>&1 || true
  else
    say "kept container $NAME and volume $VOLUME"
  fi
  exit $rc
}
trap cleanup EXIT

# ------------------------------------------------------------------------------ base image
build_local_base() {
  local tag rootfs node_bin node_prefix npm_dir
  tag=$(qualified "$NODE_IMAGE")
  node_bin=$(readlink -f "$(command -v node)")
  node_prefix=$(dirname "$(dirname "$node_bin")")
  npm_dir=$(npm root -g 2>/dev/null)/npm
  [ "$(node -p 'process.versions.node.split(".")[0]')" = 20 ] || fail "the machine's node is $(node -v), the base must be Node 20"
  [ -f "$node_prefix/include/node/node.h" ] || fail "no Node headers under $node_prefix/include/node (needed to build better-sqlite3)"
  [ -f "$npm_dir/bin/npm-cli.js" ] || fail "npm not found at $npm_dir"
  command -v debootstrap >/dev/null || fail "debootstrap is not installed (apt-get install debootstrap)"
  rootfs=$WORK/rootfs
  if [ ! -x "$rootfs/usr/bin/apt-get" ]; then
    say "debootstrap: minimal Debian bookworm into $rootfs"
    rm -rf "$rootfs"
    debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian > "$WORK/debootstrap.log" 2>&1 \
      || fail "debootstrap failed (see $WORK/debootstrap.log)"
  fi
  say "adding Node $(node -v) ($node_bin), its headers and npm $(npm -v 2>/dev/null) under /usr/local"
  install -D -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
  rm -rf "$rootfs/usr/local/include/node" "$rootfs/usr/local/lib/node_modules/npm"
  mkdir -p "$rootfs/usr/local/include" "$rootfs/usr/local/lib/node_modules"
  cp -a "$node_prefix/include/node" "$rootfs/usr/local/include/node"
  cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  # This machine reaches registries through its own certificate authorities (an egress proxy):
  # the base trusts what the machine trusts (its CA bundle, and NODE_EXTRA_CA_CERTS pointing at
  # it, as the machine's own environment does), so npm inside the build reaches the registry.
  # The Dockerfile itself stays site-neutral.
  if compgen -G '/usr/local/share/ca-certificates/*.crt' > /dev/null; then
    mkdir -p "$rootfs/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
  fi
  if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
    install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  fi
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/archives/*.deb
  say "importing the root filesystem as $tag"
  tar -C "$rootfs" -c . | engine import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "ENV NODE_VERSION=$(node -p process.versions.node)" \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    --change 'CMD ["node"]' \
    - "$tag" > /dev/null
  engine run --rm --network host "$tag" node -e 'console.log("base image: node " + process.version + " on " + require("fs").readFileSync("/etc/debian_version", "utf8").trim())'
}

base=$(qualified "$NODE_IMAGE")
case "$LOCAL_BASE" in
  always) build_local_base ;;
  never) engine image exists "$base" || fail "base image $base is not present (LOCAL_BASE=never)" ;;
  *) if engine image exists "$base"; then say "base image $base present"; else build_local_base; fi ;;
esac

# ------------------------------------------------------------------------------ build
say "building $IMAGE (multi-stage, docker format so HEALTHCHECK and STOPSIGNAL are kept)"
t0=$(date +%s)
engine build --format docker --network host --pull=never --build-arg "NODE_IMAGE=$NODE_IMAGE" -t "$IMAGE" . > "$WORK/build.log" 2>&1 \
  || { tail -30 "$WORK/build.log"; fail "image build failed (log: $WORK/build.log)"; }
say "built in $(( $(date +%s) - t0 )) s; size $(engine image inspect --format '{{.Size}}' "$IMAGE" | awk '{printf "%.0f MB", $1/1e6}')"
stop_signal=$(engine image inspect --format '{{.Config.StopSignal}}' "$IMAGE")
user=$(engine image inspect --format '{{.Config.User}}' "$IMAGE")
health_test=$(engine image inspect --format '{{json .Config.Healthcheck.Test}}' "$IMAGE")
say "image: user $user, stop signal $stop_signal, healthcheck $health_test"
[ "$stop_signal" = SIGTERM ] || fail "image stop signal is $stop_signal, not SIGTERM"
[ "$user" = oddsmaker:oddsmaker ] || fail "image user is '$user'"
[ "$health_test" != null ] || fail "image has no HEALTHCHECK"

# ------------------------------------------------------------------------------ run
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
url=http://127.0.0.1:$port
cfg=$WORK/smoke-config.json
cat > "$cfg" <<EOF
{
  "mode": "sandbox",
  "sandbox": { "seed": 42, "markets": 8, "flow": "normal" },
  "markets": { "selector": { "max": 3 } },
  "poll": { "intervalMs": 500, "maxBookAgeMs": 10000 },
  "ledger": { "path": "data/smoke-ledger.sqlite" },
  "orders": { "shutdownTimeoutMs": 20000 },
  "health": { "enabled": true, "host": "127.0.0.1", "port": $port },
  "log": { "level": "info" }
}
EOF
engine volume create "$VOLUME" > /dev/null
say "starting $NAME: sandbox mode, ops server on $url, data volume $VOLUME"
engine run -d --name "$NAME" --network host --stop-timeout "$STOP_GRACE" \
  -e "ODDSMAKER_OPERATOR_TOKEN=$TOKEN" -e "ODDSMAKER_HEALTH_URL=$url/healthz" \
  -v "$VOLUME:/app/data" -v "$cfg:/app/config/smoke.json:ro" \
  "$IMAGE" run --config config/smoke.json > /dev/null 2>> "$WORK/engine.log"
say "process in the container runs as uid $(engine exec "$NAME" id -u)"

healthy=0
for _ in $(seq 1 120); do
  code=$(curl -s -o "$WORK/healthz.json" -w '%{http_code}' "$url/healthz" || true)
  if [ "$code" = 200 ]; then healthy=1; break; fi
  if [ "$(engine inspect --format '{{.State.Running}}' "$NAME")" != true ]; then engine logs "$NAME" | tail -20; fail "container exited before /healthz answered 200"; fi
  sleep 1
done
[ $healthy = 1 ] || { cat "$WORK/healthz.json" 2>/dev/null; engine logs "$NAME" | tail -20; fail "/healthz did not answer 200 within 120 s"; }
say "/healthz: 200 $(cat "$WORK/healthz.json")"
engine healthcheck run "$NAME" > /dev/null || fail "the image's HEALTHCHECK command failed"
say "HEALTHCHECK command in the container: healthy"

# Quotes acknowledged by the exchange and resting before the stop, so that "nothing left live"
# means the cancel-all worked.
open=0
for _ in $(seq 1 60); do
  open=$(curl -s "$url/status" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{console.log(JSON.parse(s).orders.filter((o)=>o.state==="live").length)}catch{console.log(0)}})')
  [ "$open" -gt 0 ] && break
  sleep 1
done
[ "$open" -gt 0 ] || fail "no quote resting after 60 s"
say "live orders before the stop: $open"
engine exec "$NAME" node dist/src/cli/main.js status --url "$url" --orders 5 | sed 's/^/[smoke]   /'
curl -s "$url/metrics" | grep -E '^(oddsmaker_orders_placed_total|oddsmaker_cycles_total|oddsmaker_healthy|nodejs_eventloop_lag_seconds) ' | sed 's/^/[smoke]   metrics: /'

# ------------------------------------------------------------------------------ stop
say "stopping with the image's stop signal (SIGTERM), grace ${STOP_GRACE} s"
t0=$(date +%s)
engine stop -t "$STOP_GRACE" "$NAME" > /dev/null 2>> "$WORK/engine.log"
took=$(( $(date +%s) - t0 ))
exit_code=$(engine inspect --format '{{.State.ExitCode}}' "$NAME")
logs=$(engine logs "$NAME" 2>&1)
stopped_line=$(printf '%s\n' "$logs" | grep '"msg":"daemon stopped"' | tail -1 || true)
say "exit code $exit_code after ${took} s"
say "last lines: $(printf '%s\n' "$logs" | grep -E '"msg":"(stopping: cancelling every live order|daemon stopped|shutdown complete)"' | tr '\n' ' ')"
[ "$exit_code" = 0 ] || { printf '%s\n' "$logs" | tail -20; fail "exit code $exit_code (137 would mean killed at the end of the grace)"; }
[ "$took" -lt "$STOP_GRACE" ] || fail "the stop took the whole grace (${took} s)"
printf '%s\n' "$logs" | grep -q '"msg":"shutdown complete"' || fail "no 'shutdown complete' line"
[ -n "$stopped_line" ] || fail "no 'daemon stopped' line"
printf '%s' "$stopped_line" | node -e '
  let s = ""; process.stdin.on("data", (d) => s += d).on("end", () => {
    const l = JSON.parse(s);
    if (l.remaining !== 0 || l.timedOut !== false) { console.error(`cancel-all left ${l.remaining} orders (timed out: ${l.timedOut})`); process.exit(1); }
    console.log(`[smoke] cancel-all at shutdown: ${l.cancelled} cancelled, ${l.remaining} remaining, timed out: ${l.timedOut}`);
  });' || fail "orders left live according to the daemon's log"
if printf '%s\n' "$logs" | grep -qF "$TOKEN"; then fail "the operator token reached the log"; fi

# The ledger, read back from the volume by the same image: no order of ours still open.
ledger_open=$(engine run --rm --no-healthcheck --network none -v "$VOLUME:/app/data" --entrypoint node "$IMAGE" --input-type=module -e '
  const { Ledger } = await import("/app/dist/src/ledger/index.js");
  const { SystemClock } = await import("/app/dist/src/core/clock.js");
  const l = Ledger.open("/app/data/smoke-ledger.sqlite", { clock: new SystemClock() });
  console.log(l.openOrders().length);
  l.close();') || fail "could not read the ledger back from the volume"
say "open orders in the ledger after the stop: $ledger_open"
[ "$ledger_open" = 0 ] || fail "$ledger_open orders still open in the ledger"

echo "container smoke: PASS (healthy, $open quotes resting, SIGTERM → exit 0 in ${took} s, nothing left live)"
