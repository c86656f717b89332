// The import-direction lint rule (eslint.config.js, docs/ARCHITECTURE.md §1) through ESLint's own
// Node API and the repository's real config: small sources placed virtually in a layer (lintText
// with a filePath) must be reported when they import the wrong way and left alone when they import
// what their row allows. If the rule is dropped from the config, renamed or stops resolving
// paths, these fail, so a wrong-way import cannot pass CI silently.
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const RULE = 'layers/import-direction';
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: resolve(import.meta.dirname, '../..') });
});

/** The import-direction messages for `code` as if it were the file at `filePath`. */
async function directionMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  expect(result).toBeDefined();
  expect(result!.messages.filter((m) => m.fatal === true)).toEqual([]);
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

describe('lint: imports point inward', () => {
  it('reports the strategy layer importing execution, naming both layers and what is allowed', async () => {
    const msgs = await directionMessages(
      'src/strategy/wrong-way.ts',
      "import type { LiveOrder } from '../execution/types.js';\nexport type X = LiveOrder;\n",
    );
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toContain('src/strategy may not import src/execution/types.js (layer execution)');
    expect(msgs[0]).toContain('may import only core');
  });

  it('reports the same target through a deeper relative path, and through a re-export', async () => {
    expect(
      await directionMessages('src/marketdata/recording/wrong-way.ts', "export * from '../../strategy/sdk.js';\n"),
    ).toHaveLength(1);
    expect(
      await directionMessages('src/sim/engine/wrong-way.ts', "export { Ledger } from '../../ledger/index.js';\n"),
    ).toHaveLength(1);
  });

  it('reports core importing anything of ours', async () => {
    const msgs = await directionMessages(
      'src/core/wrong-way.ts',
      "import { ExchangeError } from '../exchange/errors.js';\nexport const e = ExchangeError;\n",
    );
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toContain('nothing of ours');
  });

  it('lets a strategy import the SDK only, and the registry file the registry', async () => {
    const sdk = "import { defineStrategy } from '../../src/strategy/sdk.js';\nexport const s = defineStrategy;\n";
    expect(await directionMessages('strategies/example/index.ts', sdk)).toEqual([]);
    const core = "import { SCALE } from '../../src/core/money.js';\nexport const s = SCALE;\n";
    expect(await directionMessages('strategies/example/index.ts', core)).toHaveLength(1);
    const registry =
      "import { createRegistry } from '../src/strategy/registry.js';\nexport const r = createRegistry;\n";
    expect(await directionMessages('strategies/index.ts', registry)).toEqual([]);
    expect(
      await directionMessages('strategies/example/index.ts', registry.replace('../src', '../../src')),
    ).toHaveLength(1);
  });

  it('leaves inward imports, imports within a layer, packages and tests alone', async () => {
    const inward = [
      "import { Ledger } from '../ledger/index.js';",
      "import { RateLimiter } from '../ratelimit/index.js';",
      "import { Clock } from '../core/clock.js';",
      "import { risk } from './risk.js';",
      "import { z } from 'zod';",
      "import { readFileSync } from 'node:fs';",
      'export const all = [Ledger, RateLimiter, Clock, risk, z, readFileSync];',
    ].join('\n');
    expect(await directionMessages('src/execution/right-way.ts', inward)).toEqual([]);
    expect(
      await directionMessages(
        'test/anything.test.ts',
        "import { run } from '../src/cli/main.js';\nexport const r = run;\n",
      ),
    ).toEqual([]);
  });

  it('reports a source importing from test/ or bench/, and a folder under src/ that has no row', async () => {
    expect(
      await directionMessages(
        'src/runtime/wrong-way.ts',
        "import { h } from '../../test/e2e/harness.js';\nexport const x = h;\n",
      ),
    ).toHaveLength(1);
    const msgs = await directionMessages('src/newlayer/x.ts', 'export const x = 1;\n');
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toContain('src/newlayer is not a layer');
  });
});
