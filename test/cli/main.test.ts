// The CLI as a user runs it (the compiled entry point in a child process): --help on every
// command, and the exit codes 0 success, 1 failure, 2 usage or config error.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CLI } from '../e2e/harness.js';

function cli(args: string[], env: Record<string, string> = {}): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 30_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const CONDITION = `0x${'ab'.repeat(32)}`;

beforeAll(() => {
  assertBuilt();
});

describe('oddsmaker CLI', () => {
  it.each([[[]], [['run']], [['sim']], [['order', 'build']], [['auth', 'headers']]])(
    '%j --help exits 0 and shows usage',
    (args) => {
      const r = cli([...args, '--help']);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^Usage: oddsmaker/m);
    },
  );

  it('exits 2 on an unknown command or option', () => {
    expect(cli(['bogus']).code).toBe(2);
    expect(cli(['run', '--frobnicate']).code).toBe(2);
  });

  it('exits 2 on a bad config, naming every bad path and value', () => {
    const dir = mkdtempSync(join(tmpdir(), 'om-cli-'));
    const cfg = join(dir, 'bad.json');
    writeFileSync(cfg, JSON.stringify({ mode: 'yolo', poll: { intervalMs: 'fast' } }));
    const r = cli(['run', '--config', cfg]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('mode');
    expect(r.err).toContain('"yolo"');
    expect(r.err).toContain('poll.intervalMs');
    expect(r.err).toContain('"fast"');
    expect(cli(['run', '--config', join(dir, 'missing.json')]).code).toBe(2);
    expect(cli(['run', '--mode', 'casino']).err).toContain('"casino"');
  });

  it('exits 2 on a bad order argument, and 0 with the signed order and its id', () => {
    const bad = cli([
      'order',
      'build',
      '--token',
      '1',
      '--condition',
      CONDITION,
      '--side',
      'BUY',
      '--price',
      '0.505',
      '--size',
      '10',
      '--random-key',
    ]);
    expect(bad.code).toBe(2);
    const ok = cli([
      'order',
      'build',
      '--token',
      '1',
      '--condition',
      CONDITION,
      '--side',
      'BUY',
      '--price',
      '0.5',
      '--size',
      '21.04',
      '--random-key',
      '--salt',
      '7',
      '--timestamp',
      '1790000000000',
    ]);
    expect(ok.code).toBe(0);
    const out = JSON.parse(ok.out) as { id: string; body: { order: { makerAmount: string; takerAmount: string } } };
    expect(out.id).toMatch(/^0x[0-9a-f]{64}$/);
    expect(out.body.order.makerAmount).toBe('10520000');
    expect(out.body.order.takerAmount).toBe('21040000');
  });

  it('exits 2 when live mode has no key in the environment (a config error), naming the variable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'om-cli-'));
    const cfg = join(dir, 'live.json');
    writeFileSync(cfg, JSON.stringify({ mode: 'live', ledger: { path: join(dir, 'l.sqlite') } }));
    const r = cli(['run', '--config', cfg]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/ODDSMAKER_PRIVATE_KEY/);
  });

  it('exits 1 when the daemon cannot start: the exchange does not answer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'om-cli-'));
    const cfg = join(dir, 'live.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        mode: 'live',
        exchange: { clobUrl: 'http://127.0.0.1:1', timeoutMs: 2000 },
        ledger: { path: join(dir, 'l.sqlite') },
        log: { level: 'silent' },
      }),
    );
    const r = cli(['run', '--config', cfg], {
      ODDSMAKER_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
      ODDSMAKER_API_KEY: '00000000-0000-4000-8000-000000000000',
      ODDSMAKER_API_SECRET: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
      ODDSMAKER_API_PASSPHRASE: 'ab'.repeat(32),
    });
    expect(r.code).toBe(1);
    expect(r.err).not.toContain('11'.repeat(32));
  });
});
