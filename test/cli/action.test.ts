// `oddsmaker action`: against the ops server of a virtual-clock daemon on 127.0.0.1 (the ops
// tests' harness), each action changes the daemon as the API says and prints its answer; the
// token comes only from the environment and is never printed; refusals (401 wrong token, 403
// actions disabled, 409 not running) and an unreachable daemon are one-line failures (exit 1);
// usage errors (exit 2) for an unknown action, no token, a bad URL, --url with --config; the
// address read from a config file; the command as commander parses it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  actionBaseUrl,
  ActionRefusedError,
  register,
  runActionCli,
  type ActionCliOptions,
} from '../../src/cli/action.js';
import { isConfigErrorCode, UsageError } from '../../src/cli/exit-codes.js';
import { statusViewSchema } from '../../src/runtime/ops/status-view.js';
import { opsHarness, type OpsHarness } from '../runtime/ops/ops-harness.js';

const TOKEN = 'op-secret-token-123';
let h: OpsHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  vi.restoreAllMocks();
});

async function act(
  name: string,
  o: ActionCliOptions,
  env: Record<string, string | undefined> = { ODDSMAKER_OPERATOR_TOKEN: TOKEN },
): Promise<string> {
  let out = '';
  await runActionCli(name, o, {
    write: (t) => {
      out += t;
    },
    env,
  });
  return out;
}

async function refusal(p: Promise<unknown>): Promise<ActionRefusedError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ActionRefusedError);
  const e = err as ActionRefusedError;
  expect(isConfigErrorCode(e.code)).toBe(false); // exit 1, not 2
  expect(e.message).not.toContain('\n');
  expect(e.message).not.toContain(TOKEN);
  return e;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((res) => s.listen(0, '127.0.0.1', res));
  const addr = s.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
  await new Promise<void>((res) => s.close(() => res()));
  return port;
}

describe('oddsmaker action', () => {
  it('pause, resume, trip (with a reason), clear and cancel-all change the daemon and print its answer', async () => {
    h = await opsHarness({ token: TOKEN });
    await h.start();
    const url = h.server.url;
    expect(h.executor.liveOrders().length).toBe(12);

    expect(await act('pause', { url })).toBe('pause: ok · not quoting (paused) · kill switch armed\n');
    expect(h.daemon.status().paused).toBe(true);
    expect(await act('resume', { url: `${url}/` })).toBe('resume: ok · quoting · kill switch armed\n');
    expect(h.daemon.status().paused).toBe(false);

    const tripped = await act('trip', { url, reason: 'manual check' });
    expect(tripped).toBe(
      'trip-kill-switch: ok · halted (kill switch) · kill switch TRIPPED (operator: manual check)\n',
    );
    const view = statusViewSchema.parse((await h.get('/status')).json());
    expect(view.killSwitch.tripped).toBe(true);
    expect(await act('clear', { url })).toMatch(/^clear-kill-switch: ok · .* · kill switch armed\n$/);
    expect(h.daemon.status().killSwitch.tripped).toBe(false);

    await h.clock.advanceAsync(1_000); // a cycle puts the quotes back after the trip pulled them
    expect(h.executor.liveOrders().length).toBeGreaterThan(0);
    const json = JSON.parse(await act('cancel-all', { url, json: true })) as Record<string, unknown>;
    expect(json).toMatchObject({ action: 'cancel-all', paused: true, cancelAll: { remaining: 0, timedOut: false } });
    expect((json.cancelAll as { cancelled: number }).cancelled).toBeGreaterThan(0);
    expect(h.executor.liveOrders()).toEqual([]);
  });

  it('refusals are one line each, exit 1, and never echo the token', async () => {
    h = await opsHarness({ token: TOKEN });
    await h.start();
    const url = h.server.url;
    const wrong = await refusal(act('pause', { url }, { ODDSMAKER_OPERATOR_TOKEN: 'not-the-token' }));
    expect(wrong.message).toBe(
      "refused (401): the daemon does not accept this operator token; set ODDSMAKER_OPERATOR_TOKEN to the daemon's token",
    );
    expect(h.daemon.status().paused).toBe(false);
    await h.daemon.stop();
    const stopped = await refusal(act('pause', { url }));
    expect(stopped.message).toMatch(
      /^refused \(409\): daemon is stopped: operator actions need a running daemon; try again once it runs$/,
    );
    await h.close();

    h = await opsHarness(); // no token: actions disabled on the daemon
    await h.start();
    const off = await refusal(act('pause', { url: h.server.url }));
    expect(off.message).toBe(
      'refused (403): operator actions are disabled on this daemon; start it with ODDSMAKER_OPERATOR_TOKEN set',
    );

    const port = await freePort();
    const down = await refusal(act('resume', { url: `http://127.0.0.1:${port}` }));
    expect(down.message).toMatch(/^cannot reach http:\/\/127\.0\.0\.1:\d+\/actions\/resume: /);
  });

  it('usage errors: unknown action, no token in the environment, bad URL, --url with --config, --reason without trip', async () => {
    await expect(act('halt', { url: 'http://127.0.0.1:1' })).rejects.toThrow(
      /unknown action "halt"; one of: pause, resume, cancel-all, trip, clear/,
    );
    await expect(act('toString', { url: 'http://127.0.0.1:1' })).rejects.toThrow(UsageError);
    await expect(act('pause', { url: 'http://127.0.0.1:1' }, {})).rejects.toThrow(/set ODDSMAKER_OPERATOR_TOKEN/);
    await expect(act('pause', { url: 'http://127.0.0.1:1' }, { ODDSMAKER_OPERATOR_TOKEN: '  ' })).rejects.toThrow(
      UsageError,
    );
    await expect(act('pause', { url: 'localhost:9464' })).rejects.toThrow(UsageError);
    await expect(act('pause', { url: 'http://127.0.0.1:1', config: 'x.json' })).rejects.toThrow(
      /--url or --config, not both/,
    );
    await expect(act('pause', { url: 'http://127.0.0.1:1', reason: 'x' })).rejects.toThrow(
      /--reason goes with trip only/,
    );
  });

  it('reads the address from --config (health.host/port), loopback for 0.0.0.0; the default is the config default', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'om-action-'));
    const file = join(dir, 'c.json');
    writeFileSync(file, JSON.stringify({ health: { host: '0.0.0.0', port: 19_999 } }));
    expect(actionBaseUrl({ config: file })).toBe('http://127.0.0.1:19999');
    expect(actionBaseUrl({})).toBe('http://127.0.0.1:9464');

    h = await opsHarness({ token: TOKEN });
    await h.start();
    const port = new URL(h.server.url).port;
    writeFileSync(file, JSON.stringify({ health: { host: '127.0.0.1', port: Number(port) } }));
    expect(await act('pause', { config: file })).toContain('pause: ok');
    expect(h.daemon.status().paused).toBe(true);
  });

  it('runs through commander, the token from the environment only (no token flag)', async () => {
    h = await opsHarness({ token: TOKEN });
    await h.start();
    const program = new Command().exitOverride();
    register(program);
    const cmd = program.commands.find((c) => c.name() === 'action');
    expect(cmd?.options.map((o) => o.long)).not.toContain('--token');
    vi.stubEnv('ODDSMAKER_OPERATOR_TOKEN', TOKEN);
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    await program.parseAsync(['node', 'oddsmaker', 'action', 'pause', '--url', h.server.url]);
    vi.unstubAllEnvs();
    expect(out).toBe('pause: ok · not quoting (paused) · kill switch armed\n');
    expect(h.daemon.status().paused).toBe(true);
  });
});
