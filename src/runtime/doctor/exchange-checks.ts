// The checks of the exchange itself: reachable (GET /), on the order version we sign (GET
// /version; src/exchange/order-version.ts), and our clock within the allowed skew of its (GET
// /time, whole Unix seconds: the skew is measured against the midpoint of the request and with
// the answer's second of resolution granted).
import { SUPPORTED_ORDER_VERSION, unsupportedVersionReason } from '../../exchange/order-version.js';
import { errorText, fail, ok, type CheckOutcome } from './check.js';
import type { DoctorContext } from './context.js';

export async function checkReachable(ctx: DoctorContext): Promise<CheckOutcome> {
  try {
    await ctx.client.healthCheck();
    return ok('exchange reachable', ctx.clobUrl);
  } catch (e) {
    return fail(
      'exchange reachable',
      `GET ${ctx.clobUrl}/ failed: ${errorText(e)}`,
      'check exchange.clobUrl and the network path to it',
    );
  }
}

export async function checkVersion(ctx: DoctorContext): Promise<CheckOutcome> {
  const name = 'order version';
  let version: number;
  try {
    version = await ctx.client.getVersion();
  } catch (e) {
    return fail(name, `GET /version failed: ${errorText(e)}`, 'check exchange.clobUrl');
  }
  const why = unsupportedVersionReason(version);
  if (why !== null) return fail(name, why, `run an oddsmaker release that signs order version ${version}`);
  return ok(name, `the exchange accepts version ${version}, we sign version ${SUPPORTED_ORDER_VERSION}`);
}

export async function checkClock(ctx: DoctorContext): Promise<CheckOutcome> {
  const name = 'clock';
  const before = ctx.clock.now();
  let serverSec: number;
  try {
    serverSec = await ctx.client.getServerTime();
  } catch (e) {
    return fail(name, `GET /time failed: ${errorText(e)}`, 'check exchange.clobUrl');
  }
  const after = ctx.clock.now();
  const local = (before + after) / 2;
  // The server's true time lies in [serverSec, serverSec + 1) s; the round trip adds its half.
  const lo = serverSec * 1000 - (after - before) / 2;
  const hi = serverSec * 1000 + 1000 + (after - before) / 2;
  const skew = local < lo ? local - lo : local > hi ? local - hi : 0;
  const allowed = ctx.maxSkewMs;
  if (Math.abs(skew) > allowed) {
    // Rounded down: the figure is a bound the skew is at least, so it must not round up past it.
    const s = (Math.floor(Math.abs(skew) / 100) / 10).toFixed(1);
    return fail(
      name,
      `the local clock is at least ${s} s ${skew > 0 ? 'ahead of' : 'behind'} the exchange's (allowed ${allowed / 1000} s)`,
      'synchronise the system clock (NTP: chrony or systemd-timesyncd, `timedatectl set-ntp true`)',
    );
  }
  return ok(name, `within ${allowed / 1000} s of the exchange's`);
}
