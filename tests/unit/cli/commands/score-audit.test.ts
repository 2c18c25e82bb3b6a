/**
 * `semece score --audit`: the 20-question planted audit of tests/mock/audit-rows.ts over its
 * 40-question run gives the κ, ARI and ECE shifts of the hand calculation
 * (tests/unit/pipeline/audit-summary.test.ts shows the arithmetic); a bad audit file is refused
 * with exit code 2 and a message naming the file, the line and the field.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import run from '../../../../cli/commands/score';
import { auditFileText } from '../../../../src/formats/audit-file';
import { auditRunRows, plantedAudit } from '../../../mock/audit-rows';
import { semece } from '../run-cli';
import { parseReport } from '../../../../src/formats/report-import';

let dir: string;
const f = (name: string) => join(dir, name);

async function score(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(['--clustered', f('clustered.jsonl'), '--graded', f('graded.jsonl'), '--B', '200', ...args], { out: (s: string) => out.push(s), err: (s: string) => err.push(s) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-audit-'));
  const { clustered, graded } = auditRunRows();
  await writeFile(f('clustered.jsonl'), clustered);
  await writeFile(f('graded.jsonl'), graded);
  await writeFile(f('audit.jsonl'), auditFileText(plantedAudit()));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('semece score --audit', () => {
  it('adds audit {questions, kappa, ari, ece_shift} with the hand-calculated values', async () => {
    const r = await score(['--audit', f('audit.jsonl')]);
    expect(r.code, r.err).toBe(0);
    const { audit, metrics } = JSON.parse(r.out);
    expect(audit.questions).toBe(20);
    expect(audit.kappa).toBeCloseTo(0.16 / 0.41, 12);
    expect(audit.agreement).toBeCloseTo(0.75, 12);
    expect(audit.ari).toBeCloseTo(49 / 60, 12);
    expect(audit.pairwise.precision).toBeCloseTo(82 / 102, 12);
    expect(audit.pairwise.recall).toBe(1);
    expect(audit.ece_shift.sem1.estimate).toBeCloseTo(0.15, 12);
    expect(audit.ece_shift.verbalized.estimate).toBeCloseTo(-0.1, 12);
    // The shift starts from the document's own ECE.
    expect(audit.ece_shift.sem1.ece).toBeCloseTo(metrics.ece.sem1, 12);
    // Intervals shaped as metrics.ece_interval: [low, high].
    for (const s of ['sem1', 'sem2', 'verbalized', 'entropyConfidence']) {
      const { interval, estimate } = audit.ece_shift[s];
      expect(interval).toHaveLength(2);
      expect(interval[0]).toBeLessThanOrEqual(estimate);
      expect(interval[1]).toBeGreaterThanOrEqual(estimate);
    }
    expect(audit.kappa_interval).toHaveLength(2);
    expect(audit.people).toEqual(['ana']);
    expect(Object.values(audit.by_regime as Record<string, { questions: number }>).reduce((n, p) => n + p.questions, 0)).toBe(20);
  });

  it('embeds the audit in the --report document', async () => {
    const r = await score(['--audit', f('audit.jsonl'), '--report', f('report.json')]);
    expect(r.code, r.err).toBe(0);
    const doc = parseReport(await readFile(f('report.json'), 'utf8'));
    if (!doc.ok) throw new Error(doc.error.message);
    expect(doc.value.audit).toEqual(plantedAudit());
  });

  it('refuses a bad audit file naming the file, line and field (exit 2, nothing printed)', async () => {
    const good = auditFileText(plantedAudit()).split('\n');
    const bad = [
      good[0],
      good[1]!.replace('"CORRECT"', '"RIGHT"'),
      good[2]!.replace('"id":"q4"', '"id":"q999"'),
      good[3]!.replace('[[0,1,2,3]]', '[[0,1,2]]'),
      good[4]!.slice(0, 20),
      '',
    ].join('\n');
    await writeFile(f('bad.jsonl'), bad);
    const r = await score(['--audit', f('bad.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    const file = f('bad.jsonl');
    expect(r.err).toContain(`semece score: ${file}, line 2, field "grade": unknown grade the string "RIGHT"`);
    expect(r.err).toContain(`semece score: ${file}, line 3, field "id": no scored question has id "q999"`);
    expect(r.err).toContain(`semece score: ${file}, line 4, field "classes": partitions 3 answers but the question has 4`);
    expect(r.err).toMatch(new RegExp(`semece score: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, line 5: malformed JSON`));
  });

  it('names a missing audit file and a model the rows are not', async () => {
    const missing = await score(['--audit', f('nowhere.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`cannot read --audit ${f('nowhere.jsonl')}: no such file`);
    await writeFile(f('model.jsonl'), auditFileText([{ ...plantedAudit()[0]!, model: 'other' }]));
    const other = await score(['--audit', f('model.jsonl')]);
    expect(other.code).toBe(2);
    expect(other.err).toContain('line 1, field "model": "other" is not the model scored ("mock-model")');
  });

  it('runs as a script would (child process, help lists the flag)', async () => {
    const r = await semece(['score', '--clustered', f('clustered.jsonl'), '--graded', f('graded.jsonl'), '--B', '100', '--audit', f('audit.jsonl')]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).audit.ari).toBeCloseTo(49 / 60, 12);
    const help = await semece(['score', '--help']);
    expect(help.stdout).toMatch(/--audit FILE/);
  });
});
