// Operator actions over HTTP: off (403) without a token in the environment, 401 without or with a
// wrong token (the action does nothing), and each action's effect on a running daemon on the
// virtual clock: pause stops quoting, resume brings the quotes back, cancel-all cancels every open
// order and keeps quoting off until resumed, the kill switch tripped and cleared. The token never
// reaches a log line.
import { afterEach, describe, expect, it } from 'vitest';
import { checkOperator, operatorTokenFromEnv } from '../../../src/runtime/ops/operator.js';
import { opsHarness, sample, type OpsHarness } from './ops-harness.js';

const TOKEN = 'op-token-7f3a9c1e5b2d4f60';

let h: OpsHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('the operator token', () => {
  it('no token configured: every action is disabled (403), and nothing changes', async () => {
    h = await opsHarness({ token: null });
    await h.start();
    for (const a of ['pause', 'resume', 'cancel-all', 'clear-kill-switch', 'nonsense']) {
      const r = await h.action(a, 'anything');
      expect(r.status).toBe(403);
      expect(r.json().error).toMatch(/ODDSMAKER_OPERATOR_TOKEN/);
    }
    expect((await h.action('pause')).status).toBe(403);
    expect(h.daemon.status().paused).toBe(false);
    expect(h.executor.events).not.toContain('cancelAll');
  });

  it('token configured: missing → 401 with WWW-Authenticate, wrong → 401, right → 200', async () => {
    h = await opsHarness({ token: TOKEN });
    await h.start();
    const missing = await h.action('pause');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="oddsmaker"');
    expect(missing.json()).toEqual({ error: 'operator token required (Authorization: Bearer <token>)' });
    const basic = await h.call('POST', '/actions/pause', {
      headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
    });
    expect(basic.status).toBe(401);
    const wrong = await h.action('pause', `${TOKEN}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.json()).toEqual({ error: 'wrong operator token' });
    expect((await h.action('pause', TOKEN.slice(0, -1))).status).toBe(401);
    expect(h.daemon.status().paused).toBe(false);

    const ok = await h.action('pause', TOKEN);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^application\/json/);
    expect(ok.json()).toMatchObject({ action: 'pause', paused: true, quoting: false, killSwitch: { tripped: false } });
    expect(h.daemon.status().paused).toBe(true);
  });

  it('checks the token before the action name: an unknown action is 401 without it, 404 with it; GET is 404', async () => {
    h = await opsHarness({ token: TOKEN });
    await h.start();
    expect((await h.action('reboot')).status).toBe(401);
    const unknown = await h.action('reboot', TOKEN);
    expect(unknown.status).toBe(404);
    expect(unknown.json().error).toMatch(/pause, resume, cancel-all, clear-kill-switch/);
    expect((await h.get('/actions/pause')).status).toBe(404);
  });

  it('an action on a daemon that is not running is 409', async () => {
    h = await opsHarness({ token: TOKEN });
    const r = await h.action('pause', TOKEN);
    expect(r.status).toBe(409);
    expect(r.json().error).toMatch(/daemon is new/);
    expect(h.daemon.status().paused).toBe(false);
  });

  it('never writes the token to a log line', async () => {
    h = await opsHarness({ token: TOKEN });
    await h.start();
    await h.action('pause', `${TOKEN}-wrong`);
    await h.action('pause', TOKEN);
    await h.action('resume', TOKEN);
    expect(h.lines.filter((l) => l.msg === 'operator action refused')).toHaveLength(1);
    expect(h.lines.filter((l) => l.msg === 'operator action').map((l) => l['action'])).toEqual(['pause', 'resume']);
    expect(h.rawLines.join('\n')).not.toContain(TOKEN);
  });

  it('checkOperator and the environment variable', () => {
    expect(operatorTokenFromEnv({})).toBeNull();
    expect(operatorTokenFromEnv({ ODDSMAKER_OPERATOR_TOKEN: '  ' })).toBeNull();
    expect(operatorTokenFromEnv({ ODDSMAKER_OPERATOR_TOKEN: 's3cret' })).toBe('s3cret');
    expect(checkOperator(null, 'Bearer s3cret')).toBe('disabled');
    expect(checkOperator('s3cret', undefined)).toBe('missing');
    expect(checkOperator('s3cret', 's3cret')).toBe('missing');
    expect(checkOperator('s3cret', 'Bearer s3cre')).toBe('wrong');
    expect(checkOperator('s3cret', 'bearer s3cret')).toBe('ok');
  });
});

describe('what each action does to the daemon', () => {
  it('pause: the next cycle pulls every quote and nothing is placed; resume: the quotes come back', async () => {
    h = await opsHarness({ token: TOKEN });
    await h.start();
    expect(h.executor.liveOrders()).toHaveLength(12);
    expect((await h.action('pause', TOKEN)).status).toBe(200);
    await h.clock.advanceAsync(1_000);
    expect(h.executor.liveOrders()).toEqual([]);
    await h.clock.advanceAsync(3_000);
    expect(h.executor.liveOrders()).toEqual([]);
    expect(h.daemon.status()).toMatchObject({ paused: true, quoting: false });
    const r = await h.action('resume', TOKEN);
    expect(r.json()).toMatchObject({ action: 'resume', paused: false, quoting: true });
    await h.clock.advanceAsync(1_000);
    expect(h.executor.liveOrders()).toHaveLength(12);
  });

  it('cancel-all: every open order is cancelled at once, quoting stays off until resume', async () => {
    h = await opsHarness({ token: TOKEN });
    await h.start();
    const r = await h.action('cancel-all', TOKEN);
    expect(r.status).toBe(200);
    expect(r.json()).toMatchObject({
      action: 'cancel-all',
      paused: true,
      cancelAll: { cancelled: 12, remaining: 0, timedOut: false },
    });
    expect(h.executor.liveOrders()).toEqual([]);
    expect(h.executor.events.filter((e) => e === 'cancelAll')).toHaveLength(1);
    await h.clock.advanceAsync(3_000);
    expect(h.executor.liveOrders()).toEqual([]);
    const m = await h.get('/metrics');
    expect(sample(m.text, 'oddsmaker_orders_cancelled_total', { via: 'cancel_all' })).toBe(12);
    await h.action('resume', TOKEN);
    expect(h.executor.halted).toBe(false);
    await h.clock.advanceAsync(1_000);
    expect(h.executor.liveOrders()).toHaveLength(12);
  });

  it('trip-kill-switch pulls every quote; resume does not re-arm it; clear-kill-switch quotes again', async () => {
    h = await opsHarness({ token: TOKEN });
    await h.start();
    const trip = await h.action('trip-kill-switch', TOKEN, { reason: 'manual stop' });
    expect(trip.json()).toMatchObject({
      action: 'trip-kill-switch',
      killSwitch: { tripped: true, reason: 'operator: manual stop' },
    });
    expect(h.executor.liveOrders()).toEqual([]);
    const health = await h.get('/healthz');
    expect(health.status).toBe(503);
    expect(health.json().reasons).toEqual(['kill switch tripped: operator: manual stop']);

    await h.action('resume', TOKEN);
    expect(h.executor.halted).toBe(true); // the order manager stays halted while the switch is tripped
    await h.clock.advanceAsync(2_000);
    expect(h.executor.liveOrders()).toEqual([]);

    const clear = await h.action('clear-kill-switch', TOKEN);
    expect(clear.json()).toMatchObject({ action: 'clear-kill-switch', killSwitch: { tripped: false, reason: null } });
    await h.clock.advanceAsync(1_000);
    expect(h.executor.liveOrders()).toHaveLength(12);
    expect((await h.get('/healthz')).status).toBe(200);
  });
});
