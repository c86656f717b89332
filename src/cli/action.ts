// `oddsmaker action pause|resume|cancel-all|trip|clear [--url U | --config F] [--reason R] [--json]`:
// an operator action on a running daemon through its ops API (POST /actions/<action>, see
// src/runtime/ops/server.ts and operator.ts). The daemon's address is --url, or the config's
// health.host:health.port (--config), or the config default. Invariants kept:
// - the token is read only from the environment (ODDSMAKER_OPERATOR_TOKEN, the daemon's own
//   variable): never a flag, so it stays out of shell history and `ps`; it is sent as a Bearer
//   header and never printed, not even in an error;
// - exit codes: 0 the action applied; 1 refused (401, 403, 409: one line saying why and what to
//   do) or the daemon unreachable; 2 a usage error (unknown action, bad URL, no token set, both
//   --url and --config).
import type { Command } from 'commander';
import { request } from 'undici';
import { z } from 'zod';
import { OddsmakerError } from '../core/errors.js';
import { loadConfigFile } from '../config/load.js';
import { OPERATOR_TOKEN_ENV, operatorTokenFromEnv, type OperatorAction } from '../runtime/ops/operator.js';
import { UsageError } from './exit-codes.js';
import { defaultStatusUrl } from './status.js';

/** The CLI's short names → the API's actions. */
export const CLI_ACTIONS: Readonly<Record<string, OperatorAction>> = {
  pause: 'pause',
  resume: 'resume',
  'cancel-all': 'cancel-all',
  trip: 'trip-kill-switch',
  clear: 'clear-kill-switch',
};

export interface ActionCliOptions {
  url?: string;
  config?: string;
  reason?: string;
  json?: boolean;
}

export interface ActionDeps {
  write(text: string): void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The daemon refused the action, or could not be reached: exit 1. */
export class ActionRefusedError extends OddsmakerError {
  constructor(message: string) {
    super('OPS_ACTION_REFUSED', message, false);
  }
}

const resultSchema = z.object({
  action: z.string(),
  paused: z.boolean(),
  quoting: z.boolean(),
  killSwitch: z.object({ tripped: z.boolean(), reason: z.string().nullable() }),
  cancelAll: z.object({ cancelled: z.number(), remaining: z.number(), timedOut: z.boolean() }).optional(),
});
export type ActionAnswer = z.infer<typeof resultSchema>;

const TIMEOUT_MS = 30_000; // cancel-all waits for the exchange (orders.shutdownTimeoutMs, 10 s by default)

/** The ops server's base URL from the flags: --url, else the config's health section, else the default. */
export function actionBaseUrl(o: Pick<ActionCliOptions, 'url' | 'config'>): string {
  if (o.url !== undefined && o.config !== undefined) throw new UsageError('give --url or --config, not both');
  if (o.url !== undefined) {
    let u: URL;
    try {
      u = new URL(o.url);
    } catch {
      throw new UsageError(`--url must be a URL such as http://127.0.0.1:9464, got ${JSON.stringify(o.url)}`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new UsageError(`--url must be http or https, got ${JSON.stringify(o.url)}`);
    return o.url.replace(/\/+$/, '');
  }
  if (o.config === undefined) return defaultStatusUrl();
  const h = loadConfigFile(o.config).health;
  // A daemon listening on every interface is reached on loopback from the same machine.
  const host =
    h.host === '0.0.0.0' ? '127.0.0.1' : h.host === '::' ? '[::1]' : h.host.includes(':') ? `[${h.host}]` : h.host;
  return `http://${host}:${h.port}`;
}

/** One line on why the daemon said no, and what to do about it. */
function refusal(code: number, serverError: string | undefined, action: string): string {
  switch (code) {
    case 401:
      return `refused (401): the daemon does not accept this operator token; set ${OPERATOR_TOKEN_ENV} to the daemon's token`;
    case 403:
      return `refused (403): operator actions are disabled on this daemon; start it with ${OPERATOR_TOKEN_ENV} set`;
    case 409:
      return `refused (409): ${serverError ?? 'the daemon is not running'}; try again once it runs`;
    case 404:
      return `refused (404): this daemon has no action ${action} (an older version?)`;
    default:
      return `refused (${code})${serverError === undefined ? '' : `: ${serverError}`}`;
  }
}

export function renderAnswer(a: ActionAnswer): string {
  const ks = a.killSwitch.tripped
    ? `TRIPPED${a.killSwitch.reason === null ? '' : ` (${a.killSwitch.reason})`}`
    : 'armed';
  const c = a.cancelAll;
  // A tripped kill switch pulls every quote whatever `quoting` says (as `status` shows it).
  const doing = a.killSwitch.tripped ? 'halted (kill switch)' : a.quoting ? 'quoting' : 'not quoting';
  return (
    `${a.action}: ok · ${doing}${a.paused ? ' (paused)' : ''} · kill switch ${ks}` +
    (c === undefined
      ? ''
      : ` · cancelled ${c.cancelled}, ${c.remaining} remaining${c.timedOut ? ' (timed out)' : ''}`) +
    '\n'
  );
}

export async function runActionCli(name: string, o: ActionCliOptions, deps: ActionDeps): Promise<ActionAnswer> {
  const action = CLI_ACTIONS[name];
  if (action === undefined || !Object.hasOwn(CLI_ACTIONS, name)) {
    throw new UsageError(`unknown action ${JSON.stringify(name)}; one of: ${Object.keys(CLI_ACTIONS).join(', ')}`);
  }
  if (o.reason !== undefined && action !== 'trip-kill-switch') throw new UsageError('--reason goes with trip only');
  const base = actionBaseUrl(o);
  const token = operatorTokenFromEnv(deps.env);
  if (token === null)
    throw new UsageError(
      `set ${OPERATOR_TOKEN_ENV} to the daemon's operator token (it is read only from the environment)`,
    );
  const url = `${base}/actions/${action}`;
  let code: number;
  let text: string;
  try {
    const res = await request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(o.reason === undefined ? {} : { reason: o.reason }),
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    code = res.statusCode;
    text = await res.body.text();
  } catch (err) {
    throw new ActionRefusedError(
      `cannot reach ${url}: ${err instanceof Error ? err.message : String(err)} (is the daemon running with health.enabled, and is this its health.host:health.port?)`,
    );
  }
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* an answer that is not JSON: reported below by its status */
  }
  if (code !== 200) {
    const e =
      typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string'
        ? (body as { error: string }).error
        : undefined;
    throw new ActionRefusedError(refusal(code, e, action));
  }
  const parsed = resultSchema.safeParse(body);
  if (!parsed.success) throw new ActionRefusedError(`${url} answered 200 with an unexpected document`);
  deps.write(o.json === true ? `${JSON.stringify(parsed.data, null, 2)}\n` : renderAnswer(parsed.data));
  return parsed.data;
}

export function register(program: Command): void {
  program
    .command('action')
    .description(
      `an operator action on a running daemon: ${Object.keys(CLI_ACTIONS).join(' | ')} (token from ${OPERATOR_TOKEN_ENV})`,
    )
    .argument('<action>', `${Object.keys(CLI_ACTIONS).join(' | ')} (trip and clear: the kill switch)`)
    .option('--url <url>', "base URL of the daemon's ops server (default: the config's health.host:health.port)")
    .option('--config <file>', "read the ops server's address from this config file (health.host, health.port)")
    .option('--reason <text>', 'why (trip only; recorded in the kill switch)')
    .option('--json', "print the daemon's answer as JSON")
    .action(async (name: string, o: ActionCliOptions) => {
      await runActionCli(name, o, {
        write: (t) => {
          process.stdout.write(t);
        },
        env: process.env,
      });
    });
}
