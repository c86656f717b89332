// Builds the child scripts of the multi-process tests: Node 20 cannot run TypeScript, so an entry
// file and every project source it imports (followed through relative imports, transitively) are
// transpiled one by one with the `typescript` devDependency into a temp folder that mirrors the
// repository layout and sees the repository's node_modules through a symlink. Transpiling without
// type-checking is enough here: the type check of these files is tsc's job over the repository.
// Invariants: only files reachable from the entries are emitted (a child never loads code it does
// not import, e.g. the simulator), and remove() deletes the whole folder.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface BuiltChild {
  readonly dir: string;
  /** Repository-relative .ts paths that were emitted. */
  readonly files: readonly string[];
  /** The emitted .js path of a repository-relative .ts entry. */
  path(entry: string): string;
  remove(): void;
}

/** Relative module specifiers of a source file (static imports, re-exports, dynamic imports). */
function relativeImports(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName).filter((s) => s.startsWith('.'));
}

export function buildChild(entries: readonly string[], prefix = 'oddsmaker-child-'): BuiltChild {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const seen = new Set<string>();
  const queue = entries.map((e) => normalize(e));
  try {
    while (queue.length > 0) {
      const rel = queue.pop() as string;
      if (seen.has(rel)) continue;
      seen.add(rel);
      const source = readFileSync(join(REPO_ROOT, rel), 'utf8');
      for (const spec of relativeImports(source)) {
        if (!spec.endsWith('.js')) continue; // JSON or other assets: not used by the children
        queue.push(normalize(join(dirname(rel), spec.replace(/\.js$/, '.ts'))));
      }
      const out = join(dir, rel.replace(/\.ts$/, '.js'));
      mkdirSync(dirname(out), { recursive: true });
      const js = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
        fileName: rel,
      }).outputText;
      writeFileSync(out, js);
    }
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    dir,
    files: [...seen].sort(),
    path: (entry) => join(dir, normalize(entry).replace(/\.ts$/, '.js')),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
