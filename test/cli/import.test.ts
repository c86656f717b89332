// `oddsmaker import <kind> IN --out FILE` end to end: the compiled CLI (npm run build first) as a
// child process on the real fixtures (test/fixtures/real/SOURCES.md). Checked per importer: exit
// code, the recording reads back with the records the input holds, the sidecar's depth and
// backtestability, and the stderr note that says why a book-level backtest cannot run (trades, a
// single REST book) or is approximate (L1); then a backtest on the imported L1 recording runs,
// warns that queue position is approximate, and fills. Also: usage errors exit 2 (unknown kind,
// missing input, existing --out without --force) and a malformed input exits 1 naming the line;
// --markets labels tokens from CLOB or Gamma market records.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { l1ComplementTokenId, l1TokenId } from '../../src/marketdata/recording/importers/l1-csv.js';
import { readSidecar } from '../../src/marketdata/recording/importers/sidecar.js';
import { marketLabels } from '../../src/cli/import.js';
import { RecordingReader } from '../../src/marketdata/recording/reader.js';
import { assertBuilt, CLI, tempDir } from '../e2e/harness.js';
import { realFixturePath } from '../support/fixtures.js';

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function kinds(path: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for await (const e of RecordingReader.fromFile(path)) out[e.kind] = (out[e.kind] ?? 0) + 1;
  return out;
}

let dir: string;
beforeAll(() => {
  assertBuilt();
  dir = tempDir();
});

describe('oddsmaker import', () => {
  it('market-stream: the market channel burst imports as a replayable full-depth recording', async () => {
    const out = join(dir, 'stream.omrc');
    const r = cli('import', 'market-stream', realFixturePath('clob_ws_market_burst_2tokens.jsonl'), '--out', out);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^import market-stream: 1 file → .* \(1 replayable market, depth full\); .*"messages":51/);
    const k = await kinds(out);
    expect(k['book']).toBe(2);
    expect(k['delta']).toBe(98);
    expect(readSidecar(out)).toMatchObject({ source: 'market-stream', depth: 'full', backtestable: true, note: '' });
  });

  it('rest-book: one GET /book answer imports, and stderr says why it cannot back a backtest', async () => {
    const out = join(dir, 'rest.omrc');
    const r = cli('import', 'rest-book', realFixturePath('clob_rest_book_2024-10-13.json'), '--out', out);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/not backtestable: no market has both of its tokens recorded with a book/);
    expect((await kinds(out))['book']).toBe(1);
    expect(readSidecar(out)).toMatchObject({ depth: 'full', backtestable: false });
  });

  it('--markets labels the tokens by question and outcome from market records (CLOB and Gamma shapes)', async () => {
    const out = join(dir, 'labelled.omrc');
    const r = cli(
      'import',
      'rest-book',
      realFixturePath('clob_ws_book_2024.json'),
      '--out',
      out,
      '--markets',
      realFixturePath('clob_rest_market_single.json'),
    );
    expect(r.status).toBe(0);
    const labels = readSidecar(out)?.labels ?? {};
    const booked = Object.entries(labels).find(([id]) => id.startsWith('483310433'));
    expect(booked?.[1]).toEqual({
      question: 'Will Donald Trump win the 2024 US Presidential Election?',
      outcome: 'No',
    });
    const gamma = marketLabels(
      JSON.parse(readFileSync(realFixturePath('gamma_events_dem_nominee_2028.json'), 'utf8')) as unknown,
    );
    expect(Object.keys(gamma).length).toBe(4);
    expect(new Set(Object.values(gamma).map((l) => l.outcome))).toEqual(new Set(['Yes', 'No']));
    expect(
      cli(
        'import',
        'rest-book',
        realFixturePath('clob_ws_book_2024.json'),
        '--out',
        join(dir, 'never.omrc'),
        '--markets',
        join(dir, 'none.json'),
      ).status,
    ).toBe(2);
  });

  it('data-api-trades: trades import with their question labels, and stderr says trades alone have no book', async () => {
    const out = join(dir, 'trades.omrc');
    const r = cli(
      'import',
      'data-api-trades',
      realFixturePath('wire/portfolio/trades_get_ccxt_2026-06-12.json'),
      '--out',
      out,
    );
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/not backtestable on its own: public trades carry no order book/);
    expect((await kinds(out))['trade']).toBe(3);
    const side = readSidecar(out);
    expect(side).toMatchObject({ depth: 'none', backtestable: false });
    const labels = Object.values(side?.labels ?? {});
    expect(labels.length).toBeGreaterThan(0);
    expect(labels[0]?.question).toMatch(/JD Vance/);
  });

  it('l1-csv: imports as an L1 recording a backtest accepts (with a warning), deterministically', async () => {
    const csv = realFixturePath('l1_quotes_5markets_2026-07-13.csv');
    const out = join(dir, 'l1.omrc');
    const r = cli('import', 'l1-csv', csv, '--out', out);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\(5 replayable markets, depth L1\)/);
    expect(r.stderr).toMatch(/backtestable with an approximate fill model: depth is L1/);
    const side = readSidecar(out);
    expect(side).toMatchObject({ source: 'l1-csv', depth: 'L1', backtestable: true });
    const slug = 'paccc-usho-midterms-2026-11-03-dem';
    expect(side?.labels[l1TokenId(slug)]).toEqual({ question: slug, outcome: 'quoted' });
    expect(side?.labels[l1ComplementTokenId(slug)]?.question).toBe(slug);

    // Same input, same bytes.
    const again = join(dir, 'l1-again.omrc');
    expect(cli('import', 'l1-csv', csv, '--out', again).status).toBe(0);
    expect(readFileSync(out).equals(readFileSync(again))).toBe(true);

    const config = join(dir, 'l1-config.json');
    writeFileSync(
      config,
      JSON.stringify({
        poll: { intervalMs: 60_000, maxBookAgeMs: 100_000_000, orderLookupIntervalMs: 60_000 },
        risk: { capital: '1000', dailyLossLimit: '100' },
        strategy: { name: 'bands', params: { levels: [{ margin: 0.01, size: 10 }] } },
      }),
    );
    const rep = join(dir, 'l1-report');
    const b = cli('backtest', '--config', config, '--recording', out, '--out', rep);
    expect(b.status).toBe(0);
    expect(b.stderr).toMatch(
      /warning: the recording's depth is L1 .*--fill-model queue-probabilistic\) are approximate, queue position is not known/,
    );
    const report = JSON.parse(readFileSync(join(rep, 'report.json'), 'utf8')) as { fills: { count: number } };
    expect(report.fills.count).toBeGreaterThan(0);
    // The report names the markets by their slug, not by the derived token ids.
    const html = readFileSync(join(rep, 'report.html'), 'utf8');
    expect(html).toContain(slug);
  }, 120_000);

  it('refuses what it cannot do: unknown kind and missing input exit 2, an existing --out needs --force, a bad line exits 1', () => {
    const out = join(dir, 'x.omrc');
    expect(cli('import', 'parquet', realFixturePath('clob_rest_book_2024-10-13.json'), '--out', out).status).toBe(2);
    expect(cli('import', 'rest-book', join(dir, 'nope.json'), '--out', out).status).toBe(2);
    expect(cli('import', 'rest-book', realFixturePath('clob_rest_book_2024-10-13.json'), '--out', out).status).toBe(0);
    const again = cli('import', 'rest-book', realFixturePath('clob_rest_book_2024-10-13.json'), '--out', out);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/exists; pass --force/);
    expect(
      cli('import', 'rest-book', realFixturePath('clob_rest_book_2024-10-13.json'), '--out', out, '--force').status,
    ).toBe(0);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(
      bad,
      `${readFileSync(realFixturePath('clob_ws_market_burst_2tokens.jsonl'), 'utf8').split('\n')[0] as string}\n{"event_type":"price_change"\n`,
    );
    const r = cli('import', 'market-stream', bad, '--out', join(dir, 'bad.omrc'));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/line 2: not valid JSON/);
  });
});
