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

const NETWORK_MODULES = ['providers/http', 'providers/openai', 'providers/anthropic', 'providers/gemini', 'providers/create-provider', 'providers/wire-formats', 'providers/batch-calls', 'providers/batch-service'];

/** Every folder of src/ stands on one floor of docs/ARCHITECTURE.md; .dependency-cruiser.cjs checks the arrows between them. */
const FLOORS: Record<string, number> = {
  core: 1, model: 1,
  providers: 2, formats: 2, transformers: 2, store: 2, clustering: 2, grading: 2, pipeline: 2,
  'multiple-choice': 3, batch: 3, share: 3, export: 3, demo: 3, hub: 3,
  workers: 4,
  ui: 5,
};

describe('folder rules', () => {
  test('every folder of src/ is on a floor', () => {
    const folders = readdirSync(ROOT).filter((name) => statSync(path.join(ROOT, name)).isDirectory());
    expect(folders.filter((f) => !(f in FLOORS))).toEqual([]);
  });

  test('the layer checker lists the same feature folders as the floors', () => {
    const config = readFileSync(path.resolve('.dependency-cruiser.cjs'), 'utf8');
    const features = Object.keys(FLOORS).filter((f) => FLOORS[f] === 3);
    for (const f of features) expect(config).toContain(`'${f}'`);
  });

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

  test('no stage folder imports store/: the stages see the ports of model/', () => {
    const stageFolders = ['pipeline', 'clustering', 'grading', 'providers', 'formats', 'transformers', ...Object.keys(FLOORS).filter((f) => FLOORS[f] === 3)];
    const offenders = stageFolders.flatMap((folder) =>
      filesUnder(path.join(ROOT, folder)).flatMap((file) =>
        importsOf(file)
          .filter((spec) => resolved(file, spec).startsWith('store/') || resolved(file, spec) === 'store')
          .map((spec) => `${path.relative(ROOT, file)} imports ${spec}`),
      ),
    );
    expect(offenders).toEqual([]);
  });

  test('floor 2 in steps: formats, transformers < store | providers | clustering < grading < pipeline (no import up a step, none sideways)', () => {
    const STEP: Record<string, number> = { formats: 1, transformers: 1, store: 2, providers: 2, clustering: 2, grading: 3, pipeline: 4 };
    const offenders = Object.keys(STEP).flatMap((folder) =>
      filesUnder(path.join(ROOT, folder)).flatMap((file) =>
        importsOf(file)
          .map((spec) => ({ spec, to: resolved(file, spec).split(path.sep)[0] }))
          // Folders side by side on one step never import each other (providers/ and clustering/ share
          // the Transformers.js runtime through transformers/, a step below).
          .filter(({ to }) => to in STEP && to !== folder && STEP[to] >= STEP[folder])
          .map(({ spec }) => `${path.relative(ROOT, file)} imports ${spec}`),
      ),
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
