// `oddsmaker strategies new NAME --dir D`: writes a strategy of the user's own (D/NAME.mjs, plain
// ESM JavaScript that runs without a compile step) and its test (D/NAME.test.mjs, node:test), from
// templates/strategy.ts. The strategy imports the SDK as `oddsmaker/sdk` when D can resolve it (D
// inside this checkout, or a project depending on or `npm link`-ing it: package.json "exports"),
// else by a relative path to this checkout's built SDK. Invariants: nothing is overwritten (an
// existing file is a usage error, exit 2, and then nothing is written); the name is a valid
// registry name that no built-in strategy has.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registry } from '../../strategies/index.js';
import { UsageError } from './exit-codes.js';
import { strategyTemplate, testTemplate } from './templates/strategy.js';

const NAME_RE = /^[a-z][a-z0-9-]*$/;

export interface NewStrategyResult {
  readonly strategyFile: string;
  readonly testFile: string;
  /** The specifier the strategy imports the SDK by. */
  readonly sdk: string;
}

/** How a module in dir imports the SDK: the package name when it resolves there, else a relative path. */
export function sdkSpecifier(dir: string): string {
  try {
    createRequire(join(dir, 'noop.js')).resolve('oddsmaker/sdk');
    return 'oddsmaker/sdk';
  } catch {
    // This file is dist/src/cli/strategies-new.js; the SDK dist/src/strategy/sdk.js.
    const sdk = fileURLToPath(new URL('../strategy/sdk.js', import.meta.url));
    const rel = relative(dir, sdk).split(sep).join('/');
    return rel.startsWith('.') ? rel : `./${rel}`;
  }
}

export function newStrategy(
  name: string,
  opts: { dir: string },
  out: { write(s: string): unknown },
): NewStrategyResult {
  if (!NAME_RE.test(name))
    throw new UsageError(
      `strategy name must be lower-case letters, digits and dashes, starting with a letter (${String(NAME_RE)}), got ${JSON.stringify(name)}`,
    );
  if (registry.has(name)) throw new UsageError(`${JSON.stringify(name)} is a built-in strategy; choose another name`);
  const dir = resolve(opts.dir);
  const strategyFile = join(dir, `${name}.mjs`);
  const testFile = join(dir, `${name}.test.mjs`);
  const existing = [strategyFile, testFile].filter((f) => existsSync(f));
  if (existing.length > 0)
    throw new UsageError(`refusing to overwrite ${existing.join(' and ')}; remove it or choose another name or --dir`);
  mkdirSync(dir, { recursive: true });
  const sdk = sdkSpecifier(dir);
  // 'wx': fail rather than overwrite a file that appeared meanwhile.
  writeFileSync(strategyFile, strategyTemplate(name, sdk), { flag: 'wx' });
  writeFileSync(testFile, testTemplate(name), { flag: 'wx' });
  const rel = (f: string): string => relative(process.cwd(), f) || f;
  out.write(
    [
      `wrote ${rel(strategyFile)} (the strategy) and ${rel(testFile)} (its test)`,
      '',
      'next:',
      `  node --test ${rel(testFile)}`,
      `  in a config: "strategy": { "module": ${JSON.stringify(strategyFile)}, "params": {} }  (a relative path is relative to the config file)`,
      `  oddsmaker strategies show ${name} --config CONFIG`,
      '  oddsmaker backtest --config CONFIG --recording FILE --out DIR',
      '  oddsmaker run --config CONFIG --mode paper',
      '',
    ].join('\n'),
  );
  return { strategyFile, testFile, sdk };
}
