/**
 * `semece verify` (pipeline/report-verify.ts) on a report whose grade a person overrode, as the
 * report page does it (applyGradeOverride: the grade, Y and the recomputed metrics; the manifest
 * left as the run made it): it matches, the override listed as an override. A number that does
 * not follow from the report's grades, or a grade changed without the override flag, is still a
 * difference (exit 1).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import score from '../../../../cli/commands/score';
import verify from '../../../../cli/commands/verify';
import { EXIT } from '../../../../cli/exit-codes';
import { parseReport } from '../../../../src/formats/report-import';
import { applyGradeOverride } from '../../../../src/pipeline/overrides-recompute';
import { reportManifest } from '../../../../src/model/report-manifest';
import type { ReportDocument } from '../../../../src/model/report';
import type { Grade } from '../../../../src/model/rows';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const clustered = join(root, 'tests/fixtures/reference-sample/clustered.jsonl');
const graded = join(root, 'tests/fixtures/reference-sample/graded.jsonl');

let dir: string;
let scored: ReportDocument;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-verify-overrides-'));
  const file = join(dir, 'report.json');
  const made = await cli(score, ['--clustered', clustered, '--graded', graded, '--B', '20', '--report', file]);
  expect(made.code).toBe(EXIT.partial); // the fixture's two failed rows
  const parsed = parseReport(await readFile(file, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error.message);
  scored = parsed.value;
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

async function verifyDoc(doc: ReportDocument, name: string) {
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(doc));
  return cli(verify, [file, '--clustered', clustered, '--graded', graded]);
}

const flipped = (g: Grade): Grade => (g === 'CORRECT' ? 'INCORRECT' : 'CORRECT');

/** The scored report with two grades overridden by hand, as the report page applies them. */
function overridden(): { doc: ReportDocument; ids: string[]; was: Grade[] } {
  const picks = [scored.models[0].questions[3], scored.models[0].questions[7]];
  let doc = scored;
  for (const q of picks) {
    const r = applyGradeOverride(doc, 0, q.id, flipped(q.grade));
    if (!r.ok) throw new Error(r.error.message);
    doc = r.value;
  }
  return { doc, ids: picks.map((q) => q.id), was: picks.map((q) => q.grade) };
}

test('a report with grades a person overrode matches its rows, each override listed as one', async () => {
  const { doc, ids, was } = overridden();
  // The override changed what scoring gives: the metrics are not the rows' own.
  expect(doc.models[0].metrics.signals.sem1!.ece).not.toBe(scored.models[0].metrics.signals.sem1!.ece);
  const r = await verifyDoc(doc, 'overridden.json');
  expect(r.code, r.out).toBe(EXIT.ok);
  expect(r.out).toContain('matches');
  expect(r.out).toContain('with 2 grade(s) overridden by hand');
  for (const [i, id] of ids.entries()) expect(r.out).toContain(`question ${id}: graded ${was[i]} in the rows, overridden to ${flipped(was[i])} in the report`);
  expect(r.out).not.toMatch(/\.grade: report has/);

  // A manifest made after the override (a run scored with it) matches too.
  const remade = await verifyDoc({ ...doc, manifest: await reportManifest(doc) }, 'remade.json');
  expect(remade.code, remade.out).toBe(EXIT.ok);
});

test('an overridden report still differs where a number does not follow from its grades, or a grade changed without the flag', async () => {
  const { doc, ids } = overridden();
  const tampered = structuredClone(doc);
  tampered.models[0].metrics.signals.sem2!.ece += 0.001;
  const bad = await verifyDoc(tampered, 'tampered.json');
  expect(bad.code).toBe(EXIT.failed);
  expect(bad.out).toContain('models[0].metrics.signals.sem2.ece: report has');
  expect(bad.out).toContain(`question ${ids[0]}: graded`);

  // The same grade change without the override flag is not a person's override: a difference.
  const unflagged = structuredClone(doc);
  for (const q of unflagged.models[0].questions) delete q.overridden;
  const silent = await verifyDoc(unflagged, 'unflagged.json');
  expect(silent.code).toBe(EXIT.failed);
  expect(silent.out).toContain(`models[0].questions[${ids[0]}].grade`);
  expect(silent.out).not.toContain('overridden by hand');
});
