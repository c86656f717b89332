// Starts a throwaway redis-server on a free 127.0.0.1 port for one test file (no persistence),
// and stops it. `redisAvailable()` is false only when the binary is absent (CI installs it).
// `kill()` and `restart()` take the server away under its clients and bring a fresh one (empty)
// back on the same port; `freeze()` and `thaw()` make it hang and go on; for the outage tests.
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
  /** SIGKILLs the server; clients stay connected to nothing (they see the connection drop). */
  kill(): Promise<void>;
  /** Starts a new, empty server on the same port; resolves once it answers. */
  restart(): Promise<void>;
  /** SIGSTOP / SIGCONT: the server keeps its connections but stops answering, then goes on. */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

function spawnOn(port: number): ChildProcess {
  return spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
}

function exited(proc: ChildProcess): Promise<void> {
  return new Promise<void>((r) => {
    if (proc.exitCode !== null || proc.signalCode !== null) r();
    else proc.once('exit', () => r());
  });
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
  let proc: ChildProcess = spawnOn(port);
  const clients: Redis[] = [];
  const connect = async (): Promise<Redis> => {
    const c = new Redis({
      host: '127.0.0.1',
      port,
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      retryStrategy: () => null,
    });
    // Connection errors surface as rejected commands; the event would only be noise.
    c.on('error', () => undefined);
    await c.connect();
    clients.push(c);
    return c;
  };
  // Waits until it answers (it starts in a few ms) and is the process spawned here.
  async function waitAnswering(): Promise<void> {
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
      if (i === 99) {
        proc.kill();
        throw new Error(`redis-server did not start: ${String(lastErr)}`);
      }
    }
  }
  await waitAnswering();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    client: connect,
    async kill(): Promise<void> {
      proc.kill('SIGKILL');
      await exited(proc);
    },
    async restart(): Promise<void> {
      proc = spawnOn(port);
      await waitAnswering();
    },
    freeze(): void {
      proc.kill('SIGSTOP');
    },
    thaw(): void {
      proc.kill('SIGCONT');
    },
    async stop(): Promise<void> {
      for (const c of clients) c.disconnect();
      proc.kill('SIGCONT');
      proc.kill('SIGTERM');
      await exited(proc);
    },
  };
}
