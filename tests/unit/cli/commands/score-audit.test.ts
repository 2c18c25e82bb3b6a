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
import type { AuditPlanLine } from '../../../../src/formats/audit-plan-line';
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

  it('with --by, the audit per slice under audit.slices, keyed as the report\'s slices, by hand', async () => {
    const r = await score(['--audit', f('audit.jsonl'), '--by', 'category']);
    expect(r.code, r.err).toBe(0);
    const { audit, slices } = JSON.parse(r.out);
    expect(Object.keys(audit.slices)).toEqual(Object.keys(slices));
    expect(Object.keys(audit.slices)).toEqual(['A', 'B', 'C', 'D']);
    const at = (v: string) => audit.slices[v];
    // The even questions of each letter: A q0…q22, B q24…q30, C q32, q34, D q36, q38.
    expect(['A', 'B', 'C', 'D'].map((v) => at(v).questions)).toEqual([12, 4, 2, 2]);
    // Grades: A changed q0 and q6 (10 of 12 agree), B q26, C q32, D q36. The automatic grade is one
    // category within each slice, so p_e = p_o and κ = 0.
    expect(at('A').agreement).toBeCloseTo(10 / 12, 12);
    expect(at('B').agreement).toBeCloseTo(3 / 4, 12);
    expect(at('C').agreement).toBeCloseTo(1 / 2, 12);
    expect(at('D').agreement).toBeCloseTo(1 / 2, 12);
    for (const v of ['A', 'B', 'C', 'D']) expect(at(v).kappa).toBe(0);
    // Classes: A's q0, q2, q4 one class split into four (ARI 0, 6 wrong merges each), the other 9
    // exact: mean 9/12, precision 54/72. B's q24 {0,1,2}{3} → {0,1}{2}{3}: tp 1, fp 2, fn 0, tn 3,
    // ARI 2·3/(1·3 + 3·5) = 1/3; mean (1/3 + 3)/4 = 5/6; precision (1 + 9)/(1 + 2 + 9) = 10/12.
    expect(at('A').ari).toBeCloseTo(0.75, 12);
    expect(at('A').pairwise.precision).toBeCloseTo(54 / 72, 12);
    expect(at('B').ari).toBeCloseTo(5 / 6, 12);
    expect(at('B').pairwise.precision).toBeCloseTo(10 / 12, 12);
    expect(at('C').ari).toBe(1);
    // Sem1's shift. A: 24 at 1 with y 1 (ECE 0); weight 2: q0 −0.25, q2 and q4 +0.75 each into bin 2,
    // q6 −1 in bin 9 → (2·1.75 + 2·1)/24 − 0 = 0.1875. B: 8 at 0.75 with y 1, D_7 = 2 (ECE 0.25);
    // weight 2: q24 moves +0.25 from bin 7 to +0.5 in bin 5, q26 becomes −0.75 in bin 7 →
    // D'_7 = 2 + 2(−0.25 − 1) = −0.5, D'_5 = 1: ECE' = 1.5/8 = 0.1875, shift −0.0625.
    expect(at('A').ece_shift.sem1.estimate).toBeCloseTo(0.1875, 12);
    expect(at('B').ece_shift.sem1.ece).toBeCloseTo(0.25, 12);
    expect(at('B').ece_shift.sem1.estimate).toBeCloseTo(-0.0625, 12);
    // Without --by, no slices.
    expect(JSON.parse((await score(['--audit', f('audit.jsonl')])).out).audit.slices).toBeUndefined();
  });

  it("prints the file's plans, uses a stratified plan's strata, says a mismatch, and carries the plans into --report", async () => {
    const ids = plantedAudit().map((l) => l.id);
    const byCategory: AuditPlanLine = { by: 'ana', draw: 'stratified', seed: 5, strata: 'category', halfWidth: 0.2, ids };
    await writeFile(f('planned.jsonl'), auditFileText(plantedAudit(), [byCategory]));
    const r = await score(['--audit', f('planned.jsonl'), '--report', f('planned-report.json')]);
    expect(r.code, r.err).toBe(0);
    const { audit } = JSON.parse(r.out);
    expect(audit.plans).toEqual([{ by: 'ana', draw: 'stratified', seed: 5, strata: 'category', half_width: 0.2, ids }]);
    expect(audit.plan_mismatch).toBeUndefined();
    // Stratified by category the weights N_h/k_h are 24/12, 8/4, 4/2, 4/2 = 2 in every stratum, as
    // the plain draw's 40/20: the same estimate, 0.15. The interval is the stratified bootstrap's
    // (resampling within each category), so it differs from the plain one.
    expect(audit.ece_shift.sem1.estimate).toBeCloseTo(0.15, 12);
    const plain = JSON.parse((await score(['--audit', f('audit.jsonl')])).out).audit;
    expect(audit.ece_shift.sem1.interval).not.toEqual(plain.ece_shift.sem1.interval);
    const doc = parseReport(await readFile(f('planned-report.json'), 'utf8'));
    if (!doc.ok) throw new Error(doc.error.message);
    expect(doc.value.auditPlans).toEqual([byCategory]);
    // Two people's different draws: every line kept, the mismatch said, no strata assumed.
    await writeFile(f('two-plans.jsonl'), auditFileText(plantedAudit(), [byCategory, { by: 'bo', draw: 'plain', seed: 1, ids: ids.slice(0, 3) }]));
    const two = JSON.parse((await score(['--audit', f('two-plans.jsonl')])).out).audit;
    expect(two.plans).toHaveLength(2);
    expect(two.plan_mismatch).toMatch(/^the audits were drawn by different plans \(ana: 20 questions drawn with seed 5 in proportion to each value of category, sized for ±0\.2; bo: 3 questions drawn with seed 1\)$/);
    expect(two.questions).toBe(20);
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
