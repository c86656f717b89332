// The ops console in a real browser: Debian's headless Chromium (/usr/bin/chromium, installed by
// .ci/run) driven by playwright-core, against `oddsmaker run` in sandbox mode as a child process
// (the compiled CLI, the simulator in-process, the ops server on a free loopback port, an operator
// token in its environment). The page loads with no network beyond the daemon (every file from the
// ops server, no console error: the Content-Security-Policy lets nothing else in), shows the
// markets by their question as /status has them, updates live when a fill happens (no reload), an
// action without the token is refused by the daemon (401, still quoting) and with it pauses quoting
// (GET /status says paused). Every wait is bounded and polls the DOM or the API; nothing sleeps.
// With ODDSMAKER_CONSOLE_SCREENSHOT=<file> (`npm run screenshot:console`) it saves the page there.
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reap, RunChild, writeJson } from '../cli/run-child.js';
import { assertBuilt } from './harness.js';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
const TOKEN = 'console-e2e-token-7c1d93b04e';
const SCREENSHOT = process.env['ODDSMAKER_CONSOLE_SCREENSHOT'];

// The page's globals as the functions run in the browser use them (this project has no DOM lib).
declare const document: {
  querySelectorAll(selector: string): { readonly length: number };
  querySelector(selector: string): { readonly textContent: string | null } | null;
  readonly body: { readonly dataset: Record<string, string | undefined> };
  readonly cookie: string;
};
declare const window: { readonly localStorage: { readonly length: number } };
declare const location: { readonly href: string };

interface StatusDoc {
  paused: boolean;
  quoting: boolean;
  markets: Array<{ conditionId: string; question: string }>;
}

let context: BrowserContext | null = null;
afterEach(async () => {
  await context?.close();
  context = null;
  await reap();
});

async function status(url: string): Promise<StatusDoc> {
  const res = await fetch(`${url}/status`);
  expect(res.status).toBe(200);
  return (await res.json()) as StatusDoc;
}

/** Polls GET /status until pred holds; rejects after boundMs. */
async function statusUntil(
  url: string,
  pred: (s: StatusDoc) => boolean,
  what: string,
  boundMs = 20_000,
): Promise<StatusDoc> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const s = await status(url);
    if (pred(s)) return s;
    if (Date.now() > deadline)
      throw new Error(`GET /status never showed ${what}: ${JSON.stringify({ paused: s.paused, quoting: s.quoting })}`);
    await new Promise((r) => setImmediate(r));
  }
}

async function browser(): Promise<Page> {
  context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'om-chromium-')), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1440, height: 1000 },
    offline: false,
  });
  return context.pages()[0] ?? context.newPage();
}

describe.skipIf(!HAS_CHROMIUM)(
  `the ops console in headless Chromium${HAS_CHROMIUM ? '' : ` (skipped: ${CHROMIUM} is absent; apt-get install chromium, as .ci/run does)`}`,
  () => {
    beforeAll(() => {
      assertBuilt();
    });

    it('loads, shows the markets by question, updates when a fill happens, refuses an action without the token and pauses with it', async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'om-console-'));
      const cfg = writeJson(cwd, 'config.json', {
        mode: 'sandbox',
        sandbox: { seed: 42, markets: 8, flow: 'high' },
        markets: { selector: { max: 3 } },
        poll: { intervalMs: 250, maxBookAgeMs: 5_000, orderLookupIntervalMs: 500 },
        orders: { shutdownTimeoutMs: 15_000 },
        health: { enabled: true, host: '127.0.0.1', port: 0 },
        log: { level: 'info' },
      });
      const daemon = new RunChild(['--config', cfg], { cwd, env: { ODDSMAKER_OPERATOR_TOKEN: TOKEN } });
      const url = String((await daemon.waitFor((l) => l.msg === 'ops server listening', 'the ops server'))['url']);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await daemon.waitFor((l) => l.msg === 'cycle' && Number(l['openOrders']) > 0, 'quotes resting');
      const questions = (await status(url)).markets.map((m) => m.question);
      expect(questions.length).toBeGreaterThan(0);
      expect(questions.every((q) => q.length > 0)).toBe(true);

      const page = await browser();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      // (The refused actions below are logged by the browser as failed loads: those are expected.)
      page.on('console', (m) => {
        if (m.type() === 'error' && !m.text().includes('status of 401')) problems.push(`console: ${m.text()}`);
      });
      const foreign: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(url)) foreign.push(r.url());
      });

      await page.goto(`${url}/`);
      expect(await page.title()).toBe('oddsmaker console');
      // Markets by their question, each token by its outcome, with its book.
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid=market-question]').length === n,
        questions.length,
        { timeout: 20_000 },
      );
      const shown = await page.locator('[data-testid=market-question]').allTextContents();
      expect(shown.sort()).toEqual([...questions].sort());
      expect(await page.locator('[data-testid=connection]').textContent()).toBe('live');
      expect((await page.locator('[data-testid=outcome]').allTextContents()).every((o) => o.length > 0)).toBe(true);
      await page.waitForFunction(() => document.querySelectorAll('table.ladder tr.ours').length > 0, undefined, {
        timeout: 20_000,
      });
      await page.waitForFunction(() => document.querySelectorAll('#chart canvas').length > 0, undefined, {
        timeout: 10_000,
      });

      // Live: a fill reaches the page without a reload.
      const fillsBefore = await page.locator('#fills tbody tr').count();
      await page.waitForFunction((n) => document.querySelectorAll('#fills tbody tr').length > n, fillsBefore, {
        timeout: 90_000,
        polling: 200,
      });
      const fillMarket = await page.locator('#fills tbody tr').first().locator('td.question').textContent();
      expect(questions).toContain(fillMarket);
      const updates = Number(await page.locator('body').getAttribute('data-snapshots'));
      await page.waitForFunction((n) => Number(document.body.dataset['snapshots']) > n + 1, updates, {
        timeout: 10_000,
      });
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=limiter-route]').length > 0, undefined, {
        timeout: 10_000,
      });

      if (SCREENSHOT !== undefined && SCREENSHOT !== '') {
        // A page worth looking at: a few fills and some history in the chart.
        await page.waitForFunction(() => document.querySelectorAll('#fills tbody tr').length >= 4, undefined, {
          timeout: 120_000,
          polling: 500,
        });
        const out = resolve(SCREENSHOT);
        mkdirSync(dirname(out), { recursive: true });
        await page.screenshot({ path: out, fullPage: true });
      }

      // Without the token the daemon refuses: quoting goes on.
      await page.locator('[data-testid=operator-token]').fill('');
      await page.locator('[data-testid=action-pause]').click();
      await page.waitForFunction(
        () => (document.querySelector('[data-testid=action-result]')?.textContent ?? '').includes('refused'),
        undefined,
        { timeout: 10_000 },
      );
      expect(await page.locator('[data-testid=action-result]').textContent()).toMatch(
        /^pause refused \(401\): operator token required/,
      );
      expect((await status(url)).paused).toBe(false);

      // A wrong token too.
      await page.locator('[data-testid=operator-token]').fill('not-the-token');
      await page.locator('[data-testid=action-pause]').click();
      await page.waitForFunction(
        () =>
          (document.querySelector('[data-testid=action-result]')?.textContent ?? '').includes('wrong operator token'),
        undefined,
        { timeout: 10_000 },
      );
      expect((await status(url)).paused).toBe(false);

      // With the token: paused, as the API and the page say.
      await page.locator('[data-testid=operator-token]').fill(TOKEN);
      await page.locator('[data-testid=action-pause]').click();
      await page.waitForFunction(
        () => (document.querySelector('[data-testid=action-result]')?.textContent ?? '').startsWith('pause: done'),
        undefined,
        { timeout: 10_000 },
      );
      const paused = await statusUntil(url, (s) => s.paused, 'paused');
      expect(paused.quoting).toBe(false);
      await page.waitForFunction(
        () => document.querySelector('[data-testid=quoting]')?.textContent === 'paused',
        undefined,
        { timeout: 10_000 },
      );
      // The token stayed in the page: not in a cookie, not in local storage, not in the URL.
      expect(await page.evaluate(() => [document.cookie, window.localStorage.length, location.href])).toEqual([
        '',
        0,
        `${url}/`,
      ]);

      expect(problems).toEqual([]);
      expect(foreign).toEqual([]);
      await context?.close();
      context = null;

      daemon.child.kill('SIGTERM');
      expect((await daemon.exit(30_000)).code).toBe(0);
      // The operator's token never reached a log line.
      expect(daemon.lines.map((l) => JSON.stringify(l)).join('\n') + daemon.stderr.join('\n')).not.toContain(TOKEN);
    }, 180_000);
  },
);
