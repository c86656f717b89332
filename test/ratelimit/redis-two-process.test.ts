// Integration: two separate Node processes sharing one API key's budget through Redis drive an
// edge-throttled HTTP server at saturation and receive 0 throttled responses.
//
// The exchange simulator's HTTP server does not exist yet, so the server here is a small one in
// this file that enforces the budget exactly (EdgeThrottle, the simulator's window code, no
// margin) and counts 429s; port this test to the simulator when it lands. It runs in real time
// (the only test that does), bounded to ~7 s, with a budget scaled down through config:
// POST /order (+ /orders) 50 per 1 s and 200 per 5 s, CLOB general 300 per 1 s, margin 250 ms
// (two processes, an HTTP hop and a shared 2-core machine: the margin absorbs their jitter).
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SystemClock } from '../../src/core/clock.js';
import { EdgeThrottle } from '../../src/ratelimit/edge.js';
import { routeKey } from '../../src/ratelimit/budgets.js';
import { resolveRateLimitConfig, type RateLimitConfigInput } from '../../src/ratelimit/config.js';
import { checkWindow } from './support/checker.js';
import { redisAvailable, startRedis, type RedisHandle } from './support/redis-server.js';

const HAVE_REDIS = redisAvailable();
if (!HAVE_REDIS) console.warn('redis-server not installed: two-process Redis test skipped (CI installs it via .ci/run)');

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DURATION_MS = 6500;

const CONFIG: RateLimitConfigInput = {
  marginMs: 250,
  budgets: {
    replace: true,
    buckets: {
      'clob general': [{ limit: 300, windowMs: 1000 }],
      'clob POST /order': [{ limit: 50, windowMs: 1000 }, { limit: 200, windowMs: 5000 }],
    },
    general: { clob: 'clob general' },
    routes: { 'clob POST /order': ['clob POST /order'], 'clob POST /orders': ['clob POST /order'] },
  },
};

/** Transpiles the child script and the sources it needs to plain ESM in a temp dir. */
function buildChild(): { dir: string; entry: string } {
  const dir = mkdtempSync(join(tmpdir(), 'oddsmaker-rl-'));
  const files = [
    ...['src/core', 'src/ratelimit'].flatMap((d) => readdirSync(join(ROOT, d)).filter((f) => f.endsWith('.ts')).map((f) => join(d, f))),
    'test/ratelimit/support/two-process-child.ts',
  ];
  for (const f of files) {
    const out = join(dir, f.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(out), { recursive: true });
    const js = ts.transpileModule(readFileSync(join(ROOT, f), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      fileName: f,
    }).outputText;
    writeFileSync(out, js);
  }
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, entry: join(dir, 'test/ratelimit/support/two-process-child.js') };
}

interface ChildCounts { name: string; ok: number; throttled: number; failed: number }

function runChild(entry: string, args: readonly string[]): Promise<ChildCounts> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [entry, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    p.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    p.on('exit', (code) => {
      if (code !== 0) { reject(new Error(`child ${relative(ROOT, entry)} exited ${String(code)}: ${err}`)); return; }
      try { resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as ChildCounts); } catch (e) { reject(new Error(`bad child output ${out} ${err}: ${String(e)}`)); }
    });
  });
}

describe.skipIf(!HAVE_REDIS)('two processes, one budget through Redis', () => {
  let redis: RedisHandle;
  let child: { dir: string; entry: string };
  let server: Server;
  let url = '';
  const clock = new SystemClock();
  const edge = new EdgeThrottle(resolveRateLimitConfig(CONFIG).budgets);
  const arrivals: number[] = [];
  const byClient = new Map<string, { ok: number; throttled: number }>();
  let throttled = 0;

  beforeAll(async () => {
    redis = await startRedis();
    child = buildChild();
    server = createServer((req, res) => {
      const now = clock.now();
      const route = routeKey(req.method ?? 'GET', req.url ?? '/');
      const who = String(req.headers['x-client'] ?? '?');
      const c = byClient.get(who) ?? { ok: 0, throttled: 0 };
      byClient.set(who, c);
      req.resume();
      const d = edge.check('one-api-key', 'clob', route, now);
      if (d.admitted) {
        arrivals.push(now);
        c.ok++;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
      } else {
        throttled++;
        c.throttled++;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(Math.ceil(d.retryAfterMs / 1000)) })
          .end('{"error":"Too Many Requests"}');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const addr = server.address();
    url = `http://127.0.0.1:${typeof addr === 'object' && addr !== null ? addr.port : 0}`;
  });

  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await redis.stop();
    rmSync(child.dir, { recursive: true, force: true });
  });

  it('saturates the shared budget with 0 throttled responses', async () => {
    const args = (name: string): string[] => [redis.url, `two-proc-${process.pid}`, url, String(DURATION_MS), '8', JSON.stringify(CONFIG), name];
    const [a, b] = await Promise.all([runChild(child.entry, args('A')), runChild(child.entry, args('B'))]);
    expect(throttled).toBe(0);
    expect(a.throttled + b.throttled).toBe(0);
    expect(a.failed + b.failed).toBe(0);
    // Both processes took part, and together they filled the budget: the 5 s window held
    // exactly 200 and no 1 s window more than 50, as the server counted them.
    expect(a.ok).toBeGreaterThan(0);
    expect(b.ok).toBeGreaterThan(0);
    expect(byClient.get('A')?.ok).toBe(a.ok);
    expect(a.ok + b.ok).toBe(arrivals.length);
    expect(checkWindow(arrivals, 200, 5000)).toEqual({ max: 200, violations: 0 });
    expect(checkWindow(arrivals, 50, 1000).max).toBe(50);
    expect(arrivals.length).toBeGreaterThanOrEqual(250);
  }, 30_000);
});
