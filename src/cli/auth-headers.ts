// `oddsmaker auth headers`: prints the L2 headers of one request (docs/protocol.md §1) as JSON, for
// curl or for checking another client. Credentials come from the environment only
// (ODDSMAKER_API_KEY, ODDSMAKER_API_SECRET, ODDSMAKER_API_PASSPHRASE, ODDSMAKER_ADDRESS).
// Invariants:
// - the body signed is the body file's exact bytes (read as UTF-8, nothing trimmed): send that
//   file as is;
// - the path is signed without a query string; one given with '?' is a usage error, since the
//   server signs the path alone;
// - the output is the headers a request carries, so it holds the passphrase (the server needs it);
//   the API secret itself is never printed.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { SystemClock } from '../core/clock.js';
import { addressFromEnv, credentialsFromEnv } from '../exchange/auth/credentials.js';
import { buildL2Headers } from '../exchange/auth/l2.js';
import { getDialect } from '../exchange/dialect.js';
import type { CliDeps } from './order-build.js';
import { UsageError } from './exit-codes.js';

export interface AuthHeadersOptions {
  method: string;
  path: string;
  bodyFile?: string;
  timestamp?: string;
  dialect?: string;
}

export interface AuthHeadersDeps extends CliDeps {
  /** Reads the body file as UTF-8 (tests inject one). */
  readFile?: (path: string) => Promise<string>;
}

/** Builds and prints the L2 headers; returns them. */
export async function authHeaders(o: AuthHeadersOptions, deps: AuthHeadersDeps): Promise<Record<string, string>> {
  const dialect = getDialect(o.dialect ?? 'spec');
  const method = o.method.toUpperCase();
  if (!/^[A-Z]+$/.test(method))
    throw new UsageError(`--method must be an HTTP method, got ${JSON.stringify(o.method)}`);
  if (!o.path.startsWith('/')) throw new UsageError(`--path must start with '/', got ${JSON.stringify(o.path)}`);
  if (o.path.includes('?'))
    throw new UsageError('--path must not carry the query string: the signature covers the path alone');
  let timestampSec = Math.floor(deps.clock.now() / 1000);
  if (o.timestamp !== undefined) {
    if (!/^\d{1,15}$/.test(o.timestamp))
      throw new UsageError(`--timestamp must be Unix seconds, got ${JSON.stringify(o.timestamp)}`);
    timestampSec = Number(o.timestamp);
  }
  let body: string | undefined;
  if (o.bodyFile !== undefined) {
    const read = deps.readFile ?? ((p: string) => readFile(p, 'utf8'));
    try {
      body = await read(o.bodyFile);
    } catch (err) {
      const code =
        typeof err === 'object' && err !== null && 'code' in err
          ? String((err as { code: unknown }).code)
          : 'read error';
      throw new UsageError(`--body-file: cannot read ${o.bodyFile} (${code})`);
    }
  }
  const headers = buildL2Headers({
    dialect,
    credentials: credentialsFromEnv(deps.env),
    address: addressFromEnv(deps.env),
    method,
    path: o.path,
    body,
    timestampSec,
  });
  deps.out.write(`${JSON.stringify(headers, null, 2)}\n`);
  return headers;
}

/** Registers `auth headers` (under an existing `auth` command if there is one). */
export function register(program: Command, deps?: Partial<AuthHeadersDeps>): void {
  const auth =
    program.commands.find((c) => c.name() === 'auth') ??
    program.command('auth').description('API authentication helpers');
  auth
    .command('headers')
    .description(
      'Print the L2 auth headers of a request (credentials from ODDSMAKER_API_KEY, _SECRET, _PASSPHRASE, ODDSMAKER_ADDRESS)',
    )
    .requiredOption('--method <method>', 'HTTP method')
    .requiredOption('--path <path>', 'request path, without the query string')
    .option('--body-file <file>', 'file holding the exact request body')
    .option('--timestamp <sec>', 'Unix seconds (default: now)')
    .option('--dialect <name>', 'spec or polymarket', 'spec')
    .action(async (opts: AuthHeadersOptions) => {
      await authHeaders(opts, {
        env: deps?.env ?? process.env,
        out: deps?.out ?? process.stdout,
        clock: deps?.clock ?? new SystemClock(),
        ...(deps?.readFile === undefined ? {} : { readFile: deps.readFile }),
      });
    });
}
