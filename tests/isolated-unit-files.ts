/**
 * Which unit test files run isolated (a fresh module graph and globals each, the 'unit-isolated'
 * project in vite.config.ts); the rest share their worker's module graph ('unit', isolate: false),
 * which saves each file importing src/ again (measured: 143 files, 122 s of CPU isolated, 53 s shared).
 *
 * A file needs isolation when what it does outlives it in a shared worker: it replaces modules
 * (vi.mock), globals (vi.stubGlobal, an assignment to globalThis, fake-indexeddb/auto, which
 * installs indexedDB for every later file), timers or the clock (fake timers), or spies on
 * something shared. Read from the files themselves, so a new test that does any of these is
 * isolated without anyone keeping a list.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const NEEDS_ISOLATION = [
  /\bvi\.(mock|doMock|unmock|doUnmock|hoisted|importMock|stubGlobal|stubEnv|spyOn|useFakeTimers|setSystemTime|resetModules)\b/,
  /fake-indexeddb/,
  // An assignment to a global: `globalThis.x =` or `(globalThis as T).x =`.
  /\bglobalThis\b(\s+as\s+[^)]*\))?\)?\.\w+\s*=[^=]/,
];

/** The unit test files (paths relative to `root`, with forward slashes) that need a fresh worker state each. */
export function isolatedUnitFiles(root: string, dir = 'tests/unit'): string[] {
  // vite.config.ts calls this for every command, a build included: a copy without the tests still builds.
  if (!existsSync(path.join(root, dir))) return [];
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `${dir}/${f.split(path.sep).join('/')}`)
    .filter((f) => {
      const text = readFileSync(path.join(root, f), 'utf8');
      return NEEDS_ISOLATION.some((re) => re.test(text));
    })
    .sort();
}
