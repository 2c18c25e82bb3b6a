import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

/**
 * tests/unit/ mirrors the code it tests, so the test of a module is found by its path:
 * tests/unit/<folder>/ tests src/<folder>/ (tests/unit/cli/ tests cli/, tests/unit/scripts/ the
 * model-making scripts in scripts/, and tests/unit/mock/ and tests/unit/e2e/ test the test
 * tooling in tests/mock/ and tests/e2e/). Only the tests of the
 * tree as a whole sit at the top.
 */
const UNIT = path.resolve('tests/unit');
const TOP_LEVEL = ['architecture.test.ts', 'error-boundaries.test.ts', 'mirror.test.ts'];
/** Folders of shared test data, not of tests. */
const DATA_FOLDERS = new Set(['fixtures', 'helpers']);

/** The folder, relative to the repository root, that tests/unit/<folder> mirrors. */
function mirrored(folder: string): string {
  const [first, ...rest] = folder.split('/');
  if (first === 'cli' || first === 'scripts') return path.join(first, ...rest);
  if (first === 'mock' || first === 'e2e') return path.join('tests', folder);
  return path.join('src', folder);
}

function foldersUnder(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => statSync(path.join(dir, name)).isDirectory() && !DATA_FOLDERS.has(name))
    .flatMap((name) => {
      const full = path.join(dir, name);
      return [full, ...foldersUnder(full)];
    });
}

function resolveImport(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [base, `${base}.ts`, `${base}.svelte`, path.join(base, 'index.ts')].find((f) => existsSync(f) && statSync(f).isFile());
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
/** A file read by path from the repository root, e.g. readFileSync('src/ui/theme.css'). */
const ROOT_PATH = /['"]((?:src|cli|tests)\/[^'"]+\.[a-z]+)['"]/g;

/** The files a test uses: what it imports, what the helpers beside it import, and files it reads by path. */
function filesUsedBy(testFile: string, seen = new Set<string>()): string[] {
  if (seen.has(testFile)) return [];
  seen.add(testFile);
  const text = readFileSync(testFile, 'utf8');
  const used: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const target = resolveImport(testFile, m[1] ?? m[2]);
    if (!target) continue;
    used.push(target);
    // A helper of the tests (tests/unit/…/helpers.ts) stands for the modules it imports.
    if (target.startsWith(UNIT) && !target.endsWith('.test.ts')) used.push(...filesUsedBy(target, seen));
  }
  for (const m of text.matchAll(ROOT_PATH)) used.push(path.resolve(m[1]));
  return used;
}

const folders = foldersUnder(UNIT).map((dir) => path.relative(UNIT, dir));

describe('tests/unit/ mirrors the source tree', () => {
  test('only the tests of the whole tree sit at the top of tests/unit/', () => {
    const files = readdirSync(UNIT).filter((name) => statSync(path.join(UNIT, name)).isFile());
    expect(files.filter((f) => !TOP_LEVEL.includes(f))).toEqual([]);
  });

  test('every folder of tests/unit/ has its folder in src/, cli/, scripts/ or the test tooling', () => {
    expect(folders.filter((f) => !existsSync(path.resolve(mirrored(f)))).map((f) => `tests/unit/${f} (no ${mirrored(f)})`)).toEqual([]);
  });

  test('every test uses a module of the folder it mirrors', () => {
    const misplaced = folders.flatMap((folder) => {
      const source = path.resolve(mirrored(folder));
      return readdirSync(path.join(UNIT, folder))
        .filter((name) => name.endsWith('.test.ts'))
        .filter((name) => !filesUsedBy(path.join(UNIT, folder, name)).some((f) => path.dirname(f) === source))
        .map((name) => `tests/unit/${folder}/${name} tests nothing in ${mirrored(folder)}/`);
    });
    expect(misplaced).toEqual([]);
  });
});
