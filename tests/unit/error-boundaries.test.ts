import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

/**
 * Errors keep their kind (issue 26 item 5): no code in src/ or cli/ flattens a failure to its
 * message by hand (`e instanceof Error ? e.message : String(e)`, `(e as Error)?.message ?? String(e)`,
 * `info?.message ?? String(e)`);
 * it goes through the one error shape, model/app-error.ts (errorInfo, errorMessage), and the
 * page words it in one place, ui/error-text.ts. Like architecture.test.ts, read from the files.
 */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full);
    return /\.(ts|svelte)$/.test(name) ? [full] : [];
  });
}

const FLATTENING = [
  /(\w+)\s+instanceof\s+Error\s*\?\s*\1\.message\s*:\s*String\(\s*\1\s*\)/,
  /\(\s*(\w+)\s+as\s+Error\s*\)\??\.message\s*\?\?\s*String\(\s*\1\s*\)/,
  // A hand-read info's message, else the value as text: `info?.message ?? String(e)`.
  /\??\.message\s*\?\?\s*String\(\s*\w+\s*\)/,
];

function sitesIn(text: string, name: string): string[] {
  return text.split('\n').flatMap((line, i) => (FLATTENING.some((p) => p.test(line)) ? [`${name}:${i + 1}`] : []));
}

test('the check finds each way of flattening an error', () => {
  const flattened = [
    'const a = e instanceof Error ? e.message : String(e);',
    'const b = `failed: ${(err as Error)?.message ?? String(err)}`;',
    'const c = errorMessage(e);',
    'meter.error({ kind: info?.kind ?? "error", message: info?.message ?? String(e) });',
  ].join('\n');
  expect(sitesIn(flattened, 'sample')).toEqual(['sample:1', 'sample:2', 'sample:4']);
});

test('no error is flattened to its message by hand in src/ or cli/', () => {
  const files = [...filesUnder(path.resolve('src')), ...filesUnder(path.resolve('cli'))];
  expect(files.length).toBeGreaterThan(100);
  expect(files.flatMap((f) => sitesIn(readFileSync(f, 'utf8'), path.relative(process.cwd(), f)))).toEqual([]);
});
