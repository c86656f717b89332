// Runs every benchmark of the project in sequence. Each prints `BENCH <name> <value> <unit>` lines
// plus human-readable detail. A benchmark is a module under bench/ exporting run().
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { readdirSync } from 'node:fs';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

let failed = 0;
for (const f of files) {
  process.stdout.write(`# ${f}\n`);
  try {
    const mod = (await import(join(here, f))) as { run: () => Promise<void> };
    await mod.run();
  } catch (err) {
    failed++;
    process.stdout.write(`# ${f} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
