/**
 * The page's side of opening a link or a file: it never loads the decoder or the schema itself
 * (they run in the import worker), and where no worker starts it still opens the report.
 */
import { describe, expect, test } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { importClient } from '../../../src/workers/import-client';
import { decodePayload, encodePayload } from '../../../src/share/codec';
import { parseReportFile } from '../../../src/formats/report-import';
import { sampleReport } from '../share/report-fixture';

/** The modules `file` imports for their values (type-only imports and lazy import() left out). */
function valueImports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(/^\s*import\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/gms)) {
    if (m[1]) continue;
    const braces = m[2].match(/\{([^}]*)\}/);
    const outside = m[2].replace(/\{[^}]*\}/, '').replace(/,/g, '').trim();
    const names = braces ? braces[1].split(',').map((s) => s.trim()).filter(Boolean) : [];
    if (braces && !outside && names.every((s) => s.startsWith('type '))) continue;
    out.push(m[3]);
  }
  for (const m of src.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) out.push(m[1]);
  return out.filter((s) => s.startsWith('.')).map((s) => {
    const p = path.resolve(path.dirname(file), s);
    return [p, `${p}.ts`].find((c) => existsSync(c) && /\.(ts|svelte|js)$/.test(c)) ?? p;
  });
}

/** Every module reachable from `entries` through value imports, each with the module that brought it in. */
function reachable(entries: string[]): Map<string, string | null> {
  const seen = new Map<string, string | null>();
  const todo: [string, string | null][] = entries.map((e) => [path.resolve(e), null]);
  while (todo.length) {
    const [file, by] = todo.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.set(file, by);
    for (const next of valueImports(file)) todo.push([next, file]);
  }
  return seen;
}

describe('the page side', () => {
  test('the shared-report and open-report pages never import the decoder or the schema: the worker runs them', () => {
    const graph = reachable(['src/ui/share/SharedReportPage.svelte', 'src/ui/report/OpenReportPage.svelte', 'src/workers/import-client.ts']);
    // The scan does find the modules the pages do import.
    expect(graph.has(path.resolve('src/workers/import-rows.ts'))).toBe(true);
    expect(graph.has(path.resolve('src/ui/report/ReportView.svelte'))).toBe(true);
    for (const module of ['src/share/codec.ts', 'src/formats/report-schema.ts', 'src/workers/import-api.ts']) {
      const chain: string[] = [];
      for (let at: string | null | undefined = path.resolve(module); at; at = graph.get(at)) chain.push(path.relative('.', at));
      expect(graph.has(path.resolve(module)), chain.join(' ← ')).toBe(false);
    }
  });

  test('where no worker can start (Node has no Worker), the link and the file open on the main thread alike', async () => {
    const payload = encodePayload(sampleReport({ questions: 5 }), 'full');
    expect(await importClient.openSharedLink(payload)).toEqual(decodePayload(payload));
    const file = new File(['{"format":"nope"}'], 'x.json');
    expect(await importClient.openReportFile(file)).toEqual(await parseReportFile(file));
  });
});
