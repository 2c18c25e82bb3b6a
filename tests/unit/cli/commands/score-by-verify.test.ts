/**
 * `semece score --by COLUMN` adds `slices` and `slice_test` to its document (README.md, the
 * contract scripts read), `--report` writes a manifest, and `semece verify` recomputes a report:
 * exit 0 on an untouched one, 1 naming the field on a tampered one, 2 on bad input.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import score from '../../../../cli/commands/score';
import verify from '../../../../cli/commands/verify';
import { EXIT } from '../../../../cli/exit-codes';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const sample = (name: string) => join(root, 'tests/fixtures/reference-sample', name);

let dir: string;
let clustered: string;
const graded = sample('graded.jsonl');
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-score-by-'));
  clustered = join(dir, 'clustered.jsonl');
  const lines = (await readFile(sample('clustered.jsonl'), 'utf8')).trim().split('\n');
  await writeFile(clustered, lines.map((l, i) => JSON.stringify({ ...JSON.parse(l), category: i % 5 === 0 ? 'rare' : i % 2 ? 'odd' : 'even' })).join('\n') + '\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(command: typeof score, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('score --by category: slices = {value: {questions, accuracy, ece, ece_interval}}, and the test', async () => {
  const r = await cli(score, ['--clustered', clustered, '--graded', graded, '--B', '20', '--by', 'category']);
  expect(r.code).toBe(EXIT.partial); // the fixture's two failed rows
  const doc = JSON.parse(r.out);
  expect(Object.keys(doc.slices).sort()).toEqual(['even', 'odd', 'rare']);
  let total = 0;
  for (const s of Object.values(doc.slices) as Record<string, unknown>[]) {
    expect(Object.keys(s)).toEqual(expect.arrayContaining(['questions', 'accuracy', 'ece', 'ece_interval']));
    expect(Object.keys(s.ece as object).sort()).toEqual(['sem1', 'sem2', 'verbalized']);
    for (const iv of Object.values(s.ece_interval as Record<string, number[]>)) expect(iv).toHaveLength(2);
    total += s.questions as number;
  }
  expect(total).toBe(doc.metrics.questions ?? total);
  expect(doc.slices.rare.small).toBe(true);
  expect(doc.slice_test).toMatchObject({ column: 'category', method: 'within-bin-permutation', min_questions: 30 });
  expect(Object.keys(doc.slice_test.p).sort()).toEqual(['sem1', 'sem2', 'verbalized']);
});

test('score --by a column no row has: bad input naming it', async () => {
  const r = await cli(score, ['--clustered', clustered, '--graded', graded, '--B', '20', '--by', 'subject']);
  expect(r.code).toBe(EXIT.badInput);
  expect(r.err).toContain('--by subject');
  expect(r.err).toContain('"subject"');
});

test('verify: 0 on the untouched report; 1 naming each tampered field; 2 for rows of another report', async () => {
  const report = join(dir, 'report.json');
  expect((await cli(score, ['--clustered', clustered, '--graded', graded, '--B', '20', '--report', report])).code).toBe(EXIT.partial);
  const doc = JSON.parse(await readFile(report, 'utf8'));
  expect(doc.manifest.method).toBe('sha256-128-canonical-json-v1');
  expect(Object.keys(doc.manifest.models[0].questions)).toHaveLength(doc.models[0].questions.length);
  expect(doc.models[0].questions[0].fields.category).toBeTruthy();

  const ok = await cli(verify, [report, '--clustered', clustered, '--graded', graded]);
  expect(ok.code, ok.err).toBe(EXIT.ok);
  expect(ok.out).toContain('matches');

  const q = doc.models[0].questions[4];
  q.grade = q.grade === 'CORRECT' ? 'INCORRECT' : 'CORRECT';
  doc.models[0].metrics.signals.sem2.ece += 0.001;
  const tampered = join(dir, 'tampered.json');
  await writeFile(tampered, JSON.stringify(doc));
  const bad = await cli(verify, [tampered, '--clustered', clustered, '--graded', graded]);
  expect(bad.code, bad.err).toBe(EXIT.failed);
  expect(bad.out).toContain(`models[0].questions[${q.id}].grade`);
  expect(bad.out).toContain('models[0].metrics.signals.sem2.ece: report has');

  // The same report against rows with one answer changed: the numbers may agree, the manifest does not.
  const lines = (await readFile(clustered, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
  lines[0].answer_extracted[0] = `${lines[0].answer_extracted[0]} (changed)`;
  const changed = join(dir, 'changed.jsonl');
  await writeFile(changed, lines.map((l) => JSON.stringify(l)).join('\n'));
  const moved = await cli(verify, [report, '--clustered', changed, '--graded', graded]);
  expect(moved.code).toBe(EXIT.failed);
  expect(moved.out).toContain(`manifest.models[0].questions[${lines[0].id}]`);

  expect((await cli(verify, [report, '--clustered', join(dir, 'missing.jsonl'), '--graded', graded])).code).toBe(EXIT.badInput);
  expect((await cli(verify, ['--clustered', clustered, '--graded', graded])).code).toBe(EXIT.badInput);
});
