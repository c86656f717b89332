// ESLint (flat config): typescript-eslint's recommended rules over the code, Prettier's
// eslint-config-prettier last so formatting is Prettier's alone, and the import direction of
// docs/ARCHITECTURE.md §1 as a local rule, `layers/import-direction`.
//
// Why a local rule and not no-restricted-imports, eslint-plugin-boundaries or dependency-cruiser:
// the rule resolves each relative import to the file it names, so `../execution/x.js` and
// `../../execution/x.js` are one target and a sub-folder that happens to share a layer's name is
// not; the table below is an allow-list that reads like the one in the docs (a new folder under
// src/ fails until it is given a row); the message names both layers and what is allowed; and it
// needs no import resolver or second tool, so editors show it like any other lint error.
// test/lint/import-direction.test.ts proves it still fires.
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ROOT = dirname(fileURLToPath(import.meta.url));

const ALL = [
  'core',
  'exchange',
  'ratelimit',
  'ledger',
  'strategy',
  'marketdata',
  'execution',
  'sim',
  'config',
  'backtest',
  'runtime',
  'cli',
  'strategies',
];

/**
 * What each layer may import besides itself: a layer's name (a folder under src/, or
 * `strategies`) or one file (a path from the repository root, without extension).
 * Keep in step with docs/ARCHITECTURE.md §1.
 */
export const LAYERS = {
  core: [],
  exchange: ['core'],
  ratelimit: ['core'],
  ledger: ['core'],
  strategy: ['core'],
  marketdata: ['core', 'exchange'],
  execution: ['core', 'exchange', 'ledger', 'ratelimit'],
  sim: ['core', 'exchange', 'ratelimit'],
  config: ['core', 'exchange', 'ratelimit', 'strategy', 'strategies/index'],
  backtest: ALL.filter((l) => l !== 'cli'),
  runtime: ALL.filter((l) => l !== 'cli'),
  cli: ALL,
  strategies: ['src/strategy/sdk'],
};

/** Single files with more than their layer's row: the registry lists the strategies. */
const FILE_EXTRAS = {
  'strategies/index': ['src/strategy/registry'],
};

/** `src/<layer>/…` or `strategies/…` → the layer; anything else of ours (test/, bench/) → null. */
function layerOf(rel) {
  const parts = rel.split('/');
  if (parts[0] === 'strategies') return 'strategies';
  if (parts[0] === 'src' && parts.length > 2) return parts[1];
  return null;
}

const importDirection = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports point inward: a layer imports only the layers its row in LAYERS allows.' },
    schema: [],
    messages: {
      wrongWay:
        '{{from}} may not import {{target}} (layer {{to}}): {{from}} may import only {{allowed}} (docs/ARCHITECTURE.md §1, LAYERS in eslint.config.js).',
      unknownLayer:
        "src/{{layer}} is not a layer in eslint.config.js's LAYERS: give it a row (and one in docs/ARCHITECTURE.md §1).",
    },
  },
  create(context) {
    const fromRel = relative(ROOT, context.filename).split(sep).join('/');
    const from = layerOf(fromRel);
    if (from === null) return {};
    const fromFile = fromRel.replace(/\.[cm]?[jt]s$/, '');
    if (!(from in LAYERS)) {
      return { Program: (node) => context.report({ node, messageId: 'unknownLayer', data: { layer: from } }) };
    }
    const allowed = [...LAYERS[from], ...(FILE_EXTRAS[fromFile] ?? [])];

    function check(node, source) {
      if (typeof source !== 'string' || !source.startsWith('.')) return; // packages and node: builtins
      const targetRel = relative(ROOT, resolve(dirname(context.filename), source))
        .split(sep)
        .join('/');
      const targetFile = targetRel.replace(/\.[cm]?[jt]s$/, '');
      const to = layerOf(targetRel);
      if (to === from || allowed.includes(targetFile)) return;
      if (to !== null && allowed.includes(to)) return;
      context.report({
        node,
        messageId: 'wrongWay',
        data: {
          from: from === 'strategies' ? 'strategies/' : `src/${from}`,
          target: targetRel,
          to: to ?? 'none',
          allowed: allowed.length === 0 ? 'nothing of ours' : allowed.join(', '),
        },
      });
    }

    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      TSImportType: (node) => {
        const arg = node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument;
        if (arg?.type === 'Literal') check(arg, arg.value);
      },
    };
  },
};

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', 'test/fixtures/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // Unused names are the compiler's job (noUnusedLocals, noUnusedParameters in tsconfig.json);
      // one report per name is enough.
      '@typescript-eslint/no-unused-vars': 'off',
      // `interface A extends B {}` names a type of its own for a later member; only a bare `{}` is a slip.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // `let x; … () => x?.f(); … x = made` is how a callback given to a constructor reaches the
      // object built after it; a `const` cannot be read before it is assigned.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  // Plain JavaScript: Node's globals, but the ops console's page script runs in a browser.
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ignores: ['src/runtime/ops/console/**'],
    languageOptions: { globals: globals.node },
  },
  { files: ['src/runtime/ops/console/**/*.js'], languageOptions: { globals: globals.browser } },
  {
    files: ['src/**/*.ts', 'strategies/**/*.ts'],
    plugins: { layers: { rules: { 'import-direction': importDirection } } },
    rules: { 'layers/import-direction': 'error' },
  },
  prettier,
);
