/**
 * `semece cluster` and `semece grade` record their method in each row (clustering_method,
 * grading_method and their details), and `semece score --report` reads them into the report's
 * settings; the authors' rows, which have none, stay 'imported'.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import cluster from '../../../../cli/commands/cluster';
import grade from '../../../../cli/commands/grade';
import score from '../../../../cli/commands/score';
import { parseReport } from '../../../../src/formats/report-import';
import { readAuthorsRows } from '../../../../src/formats/authors-rows';
import { root } from '../run-cli';

let dir: string;
const sampled = [
  { id: 'fr', question: 'What is the capital of France?', gold_answer: 'Paris', model: 'm', n_samples: 4, results: ['r', 'r', 'r', 'r'], answer_extracted: ['Lyon', 'Paris', 'paris', 'Paris'], confidence_verbalized: [0.9, 0.8, null, 0.7] },
  { id: 'two', question: 'How many moons does Mars have?', gold_answer: '2', model: 'm', n_samples: 4, results: ['r', 'r', 'r', 'r'], answer_extracted: ['three', '2', 'three', '2'], confidence_verbalized: [0.5, 0.5, 0.5, 0.5] },
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-row-methods-'));
  await writeFile(join(dir, 'sampled.jsonl'), sampled.map((r) => JSON.stringify(r)).join('\n') + '\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(command: typeof cluster, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command(args, { out: (s) => out.push(s), err: (s) => err.push(s), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
const readRows = async (file: string) => (await readFile(join(dir, file), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
async function reportSettings(file: string) {
  const parsed = parseReport(await readFile(file, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value.settings;
}

describe('the method of each stage travels in the rows to the report', () => {
  test('exact clustering and alias grading: recorded in the rows and in score --report', async () => {
    expect((await cli(cluster, ['--method', 'exact', '--in', join(dir, 'sampled.jsonl'), '--out', join(dir, 'c.jsonl')])).code).toBe(0);
    const clustered = await readRows('c.jsonl');
    expect(clustered[0]).toMatchObject({ clustering_method: 'exact', clustering_detail: 'normalized exact match' });
    expect((await cli(grade, ['--method', 'alias', '--in', join(dir, 'c.jsonl'), '--out', join(dir, 'g.jsonl')])).code).toBe(0);
    expect((await readRows('g.jsonl'))[0]).toMatchObject({ grading_method: 'alias', grading_detail: 'normalized match against the answer and its aliases' });

    const report = join(dir, 'report.json');
    const s = await cli(score, ['--clustered', join(dir, 'c.jsonl'), '--graded', join(dir, 'g.jsonl'), '--B', '20', '--report', report]);
    expect(s.err).not.toMatch(/cannot/);
    const settings = await reportSettings(report);
    expect(settings.clustering).toEqual({ method: 'exact', detail: 'normalized exact match' });
    expect(settings.grading).toEqual({ method: 'alias', detail: 'normalized match against the answer and its aliases' });
  });

  test("the authors' rows, without the fields, are scored as imported", async () => {
    const report = join(dir, 'authors.json');
    const sample = (f: string) => join(root, 'tests/fixtures/reference-sample', f);
    await cli(score, ['--clustered', sample('clustered.jsonl'), '--graded', sample('graded.jsonl'), '--B', '20', '--report', report]);
    const settings = await reportSettings(report);
    expect(settings.clustering).toEqual({ method: 'imported' });
    expect(settings.grading).toEqual({ method: 'imported' });
  });

  test('rows of two methods joined, or an unknown method, are told apart', async () => {
    const rows = await readRows('c.jsonl');
    const graded = await readFile(join(dir, 'g.jsonl'), 'utf8');
    const mixed = rows.map((r, i) => JSON.stringify(i === 0 ? { ...r, clustering_method: 'judge', clustering_detail: 'judge openai/x' } : r)).join('\n');
    const joined = readAuthorsRows({ text: mixed, file: 'mixed.jsonl' }, { text: graded, file: 'g.jsonl' });
    expect(joined.ok && joined.value.methods?.clustering).toEqual({ method: 'imported', detail: 'rows made by different methods' });
    const bad = rows.map((r) => JSON.stringify({ ...r, clustering_method: 'guess' })).join('\n');
    const refused = readAuthorsRows({ text: bad, file: 'bad.jsonl' }, { text: graded, file: 'g.jsonl' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/bad\.jsonl.*line 1.*"clustering_method" must be one of judge, embedding, entailment, exact/);
  });
});
