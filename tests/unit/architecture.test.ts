import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

/**
 * The folder rules of ARCHITECTURE.md, checked on every import statement:
 * core/ is pure statistics; the UI never reaches the network or IndexedDB driver directly;
 * app code never imports Node built-ins (it must run in a browser).
 */
const ROOT = path.resolve('src');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full);
    return /\.(ts|svelte)$/.test(name) ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  const pattern = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(pattern)) specs.push(m[1] ?? m[2]);
  return specs;
}

function resolved(file: string, spec: string): string {
  return spec.startsWith('.') ? path.relative(ROOT, path.resolve(path.dirname(file), spec)) : spec;
}

const NETWORK_MODULES = ['providers/http', 'providers/openai', 'providers/anthropic', 'providers/gemini', 'providers/index', 'providers'];

describe('folder rules', () => {
  test('core/ imports nothing outside core/', () => {
    const offenders = filesUnder(path.join(ROOT, 'core')).flatMap((file) =>
      importsOf(file)
        .filter((spec) => !resolved(file, spec).startsWith('core'))
        .map((spec) => `${path.relative(ROOT, file)} imports ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  test('ui/ never imports a provider client or the IndexedDB driver', () => {
    const offenders = filesUnder(path.join(ROOT, 'ui')).flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec === 'idb' || NETWORK_MODULES.includes(resolved(file, spec).replace(/\.ts$/, '')))
        .map((spec) => `${path.relative(ROOT, file)} imports ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  test('app code imports no Node built-in (build plugins excepted)', () => {
    const offenders = filesUnder(ROOT)
      .filter((file) => !/vite-plugin/.test(file))
      .flatMap((file) =>
        importsOf(file)
          .filter((spec) => spec.startsWith('node:'))
          .map((spec) => `${path.relative(ROOT, file)} imports ${spec}`),
      );
    expect(offenders).toEqual([]);
  });
});
