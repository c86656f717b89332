// Starts a throwaway redis-server on a free 127.0.0.1 port for one test file (no persistence),
// and stops it. `redisAvailable()` is false only when the binary is absent (CI installs it).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { SystemClock } from '../../../src/core/clock.js';

export function redisAvailable(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

export interface RedisHandle {
  readonly port: number;
  readonly url: string;
  client(): Promise<Redis>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The free port is probed, then released before redis-server binds it, so another test file
 * starting its own server at the same moment can take it. A start therefore counts only when the
 * server answering on the port is the process spawned here (INFO's process_id); otherwise it is
 * retried on another port, so two test files never share one server.
 */
export async function startRedis(): Promise<RedisHandle> {
  let lastErr: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await startRedisOnce();
    } catch (err) {
      lastErr = err;
    }
  }
  throw new Error(`redis-server did not start: ${String(lastErr)}`);
}

async function startRedisOnce(): Promise<RedisHandle> {
  const port = await freePort();
  const proc: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const clients: Redis[] = [];
  const connect = async (): Promise<Redis> => {
    const c = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
    // Connection errors surface as rejected commands; the event would only be noise.
    c.on('error', () => undefined);
    await c.connect();
    clients.push(c);
    return c;
  };
  // Wait until it answers (it starts in a few ms).
  let lastErr: unknown;
  for (let i = 0; i < 100; i++) {
    if (proc.exitCode !== null) throw new Error(`redis-server exited at start (port ${port} taken?)`);
    try {
      const c = await connect();
      await c.ping();
      const pid = /process_id:(\d+)/.exec(await c.info('server'))?.[1];
      if (pid !== String(proc.pid)) {
        for (const x of clients) x.disconnect();
        proc.kill('SIGTERM');
        throw new Error(`port ${port} is served by another redis-server (pid ${String(pid)})`);
      }
      break;
    } catch (err) {
      if (err instanceof Error && err.message.includes('served by another')) throw err;
      lastErr = err;
      await new SystemClock().sleep(50);
    }
    if (i === 99) { proc.kill(); throw new Error(`redis-server did not start: ${String(lastErr)}`); }
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    client: connect,
    async stop(): Promise<void> {
      for (const c of clients) c.disconnect();
      proc.kill('SIGTERM');
      await new Promise<void>((r) => { if (proc.exitCode !== null) r(); else proc.once('exit', () => r()); });
    },
  };
}
