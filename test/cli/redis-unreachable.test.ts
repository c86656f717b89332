// `oddsmaker run` (the compiled CLI as a child process, sandbox mode) whose config names a Redis
// rate-limit backend it cannot use: a closed 127.0.0.1 port fails the start within the connect
// timeout, exit 1, with one message naming the settings and the address (password redacted) and
// no ioredis noise; a SIGTERM while it waits on a server that never answers exits 0 at once; a URL
// that is not a Redis URL is a config error, exit 2. Every wait is bounded by a kill timer and
// driven by events (the child's exit, its TCP connection); nothing sleeps.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, startCli } from '../support/child.js';

const PASSWORD = 'hunter2-5f1c9e';
/** The default `rateLimit.backend.connectTimeoutMs` (the configs below leave it out). */
const CONNECT_TIMEOUT_MS = 3000;
/** Start-up besides the connect wait (loading the CLI, starting the simulator) on a busy 2-core box. */
const STARTUP_SLACK_MS = 10_000;
/** "At once" after a SIGTERM, with room for a busy machine (it takes about 0.3 s idle). */
const PROMPT_EXIT_MS = 3_000;

interface Exit {
  code: number | null;
  signal: string | null;
  ms: number;
  endedAt: number;
  out: string;
  err: string;
}

function config(redisUrl: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'om-redis-down-'));
  const path = join(dir, 'config.json');
  writeFileSync(
    path,
    JSON.stringify({
      mode: 'sandbox',
      sandbox: { seed: 7, markets: 4 },
      markets: { selector: { max: 2 } },
      ledger: { path: join(dir, 'ledger.sqlite') },
      health: { enabled: false },
      rateLimit: { backend: { kind: 'redis', url: redisUrl } },
    }),
  );
  return path;
}

/** Runs the CLI; SIGKILLed (and reported as such) if it outlives `boundMs`. */
async function run(
  configPath: string,
  boundMs: number,
  onSpawn?: (kill: (sig: NodeJS.Signals) => void) => void,
): Promise<Exit> {
  const t0 = performance.now();
  const c = startCli(['run', '--config', configPath]);
  onSpawn?.((sig) => {
    c.child.kill(sig);
  });
  // Past the bound exit() SIGKILLs and rejects; the exit is then the SIGKILL's.
  const exit = await c.exit(boundMs).catch(() => c.exited);
  const endedAt = performance.now();
  return {
    code: exit.code,
    signal: exit.signal,
    ms: endedAt - t0,
    endedAt,
    out: c.stdout.join('\n'),
    err: c.stderr.join('\n'),
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  return typeof a === 'object' && a !== null ? a.port : 0;
}

let servers: Server[] = [];
let sockets: Socket[] = [];
beforeAll(() => {
  assertBuilt();
});
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets = [];
  for (const s of servers) await new Promise<void>((r) => s.close(() => r()));
  servers = [];
});

describe('oddsmaker run with an unusable Redis rate-limit backend', () => {
  it('fails the start within the connect timeout, exit 1, one message naming the settings and the address', async () => {
    // A port that was just free and is closed again: connections to it are refused.
    const probe = createServer();
    const port = await listen(probe);
    await new Promise<void>((r) => probe.close(() => r()));

    const r = await run(config(`redis://:${PASSWORD}@127.0.0.1:${port}`), CONNECT_TIMEOUT_MS + STARTUP_SLACK_MS);
    expect(r.signal, `still running after the bound; stderr: ${r.err}`).toBeNull();
    expect(r.code).toBe(1);
    expect(r.ms).toBeLessThan(CONNECT_TIMEOUT_MS + STARTUP_SLACK_MS);
    console.log(
      `closed Redis port: exit ${String(r.code)} after ${Math.round(r.ms)} ms (connect timeout ${CONNECT_TIMEOUT_MS} ms)`,
    );
    const lines = r.err.trim().split('\n');
    expect(lines).toEqual([
      `oddsmaker: rate limiter: Redis at redis://:***@127.0.0.1:${port} (rateLimit.backend.url) not reachable within ${CONNECT_TIMEOUT_MS} ms` +
        ` (rateLimit.backend.connectTimeoutMs): connect ECONNREFUSED 127.0.0.1:${port}`,
    ]);
    expect(r.out + r.err).not.toContain(PASSWORD);
    expect(r.out + r.err).not.toMatch(/ioredis|Unhandled/);
  }, 30_000);

  it('exits 0 at once on SIGTERM while it waits for a Redis that never answers', async () => {
    // Accepts the connection and never says a word: the start would wait the whole timeout; the
    // SIGTERM comes as soon as the connection arrives, long before it.
    const silent = createServer((s) => {
      sockets.push(s);
    });
    servers.push(silent);
    const port = await listen(silent);
    let signalledAt = 0;
    const r = await run(config(`redis://:${PASSWORD}@127.0.0.1:${port}`), 30_000, (kill) => {
      silent.once('connection', () => {
        signalledAt = performance.now();
        kill('SIGTERM');
      });
    });
    expect(signalledAt).toBeGreaterThan(0);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    const afterSignalMs = r.endedAt - signalledAt;
    console.log(`SIGTERM while connecting: exit ${String(r.code)} ${Math.round(afterSignalMs)} ms after the signal`);
    expect(afterSignalMs).toBeLessThan(PROMPT_EXIT_MS);
    expect(r.err.trim().split('\n')).toEqual([
      `oddsmaker: rate limiter: start-up aborted while connecting to Redis at redis://:***@127.0.0.1:${port} by SIGTERM; nothing was started`,
    ]);
    expect(r.out + r.err).not.toContain(PASSWORD);
  }, 30_000);

  it('exits 2 on a URL that is not a Redis URL, naming the setting, without the password', async () => {
    const r = await run(config(`http://:${PASSWORD}@127.0.0.1:1`), 30_000);
    expect(r.code).toBe(2);
    expect(r.err).toContain('rateLimit.backend.url: expected a redis:// or rediss:// URL');
    expect(r.out + r.err).not.toContain(PASSWORD);
  }, 30_000);
});
