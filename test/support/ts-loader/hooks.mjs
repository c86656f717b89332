// Module hooks for the test processes (registered by register.mjs): a relative `.js` import that
// has no file but a `.ts` sibling resolves to the sibling (how tsc's `nodenext` sources name their
// imports), and a `.ts` file of this repository (not of node_modules) is loaded as the JavaScript
// TypeScript's transpileModule makes of it (types stripped, no type check: tsc checks these files).
// Only what Node cannot load itself is touched; everything else goes to the next hook unchanged.
// Transpiled output is cached on disk by a hash of the path, the source and the TypeScript
// version, so a stale copy cannot be served and TypeScript (~0.3 s to load) is only loaded on a
// miss: every worker thread has its own hooks thread, and tests start many workers.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', 'oddsmaker-ts-loader');
const require = createRequire(import.meta.url);
const TS_VERSION = JSON.parse(readFileSync(require.resolve('typescript/package.json'), 'utf8')).version;
let ts = null;

const ours = (url) => url.startsWith('file:') && !url.includes('/node_modules/') && fileURLToPath(url).startsWith(ROOT);

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (err) {
    const relative =
      specifier.startsWith('./') ||
      specifier.startsWith('../') ||
      specifier.startsWith('file:') ||
      specifier.startsWith('/');
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !relative || !specifier.endsWith('.js')) throw err;
    const r = await next(`${specifier.slice(0, -3)}.ts`, context);
    if (!ours(r.url)) throw err;
    return r;
  }
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts') || !ours(url)) return next(url, context);
  const path = fileURLToPath(url);
  const source = readFileSync(path, 'utf8');
  const key = createHash('sha256').update(`${TS_VERSION}\0${path}\0${source}`).digest('hex');
  const cached = join(CACHE, `${key}.js`);
  try {
    return { format: 'module', source: readFileSync(cached, 'utf8'), shortCircuit: true };
  } catch {
    // A miss: transpile below.
  }
  ts ??= require('typescript');
  const out = ts.transpileModule(source, {
    fileName: path,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      inlineSourceMap: true,
      inlineSources: true,
    },
  }).outputText;
  try {
    mkdirSync(CACHE, { recursive: true });
    const tmp = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(tmp, out);
    renameSync(tmp, cached); // atomic: a concurrent reader sees the whole file or none
  } catch {
    // No cache (read-only tree): transpiling every time is only slower.
  }
  return { format: 'module', source: out, shortCircuit: true };
}
