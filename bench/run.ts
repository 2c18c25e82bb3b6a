/**
 * `npm run bench [-- FILTER…]`: runs every bench/*.bench.ts in name order (or those whose name
 * contains one of the FILTER words). Each file's default export is an async function that
 * prints its own figures; nothing is asserted. A bench that throws is reported and the rest
 * still run; the exit code is 1 if any failed.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2).filter((a) => a !== '--');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((w) => f.includes(w)))
  .sort();

if (files.length === 0) {
  console.error(`bench: no bench/*.bench.ts file matches ${filters.map((f) => `'${f}'`).join(', ') || '(none found)'}`);
  process.exitCode = 1;
} else {
  let failed = 0;
  for (const file of files) {
    console.log(`\n=== ${file} ===`);
    const start = performance.now();
    try {
      const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default?: () => Promise<void> };
      if (typeof mod.default !== 'function') throw new Error('no default export function');
      await mod.default();
      console.log(`--- ${file}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
    } catch (e) {
      failed++;
      console.error(`--- ${file} FAILED: ${(e as Error)?.message ?? String(e)}`);
    }
  }
  if (failed) process.exitCode = 1;
}
