/**
 * `semece score` gives the margin regimes their intervals only in the report document it writes
 * (--report), where the app shows them; its printed document, which has none, skips their cost.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import run from '../../../../cli/commands/score';
import { parseReportFile } from '../../../../src/formats/report-import';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const sample = (name: string) => join(root, 'tests/fixtures/reference-sample', name);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-score-regimes-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('the --report document holds each regime\'s interval; the printed document is the same with or without it', async () => {
  const out = join(dir, 'report.json');
  const args = ['--clustered', sample('clustered.jsonl'), '--graded', sample('graded.jsonl'), '--B', '60'];
  const printed: string[] = [];
  await run([...args, '--report', out], { out: (t) => printed.push(t), err: () => undefined });
  const plain: string[] = [];
  await run(args, { out: (t) => plain.push(t), err: () => undefined });
  expect(JSON.parse(printed.join('\n'))).toEqual(JSON.parse(plain.join('\n')));
  expect(printed.join('\n')).not.toContain('eceBiasCorrected');

  const back = await parseReportFile(new File([await readFile(out)], 'report.json'));
  if (!back.ok) throw new Error(back.error.message);
  const regimes = Object.values(back.value.models[0].metrics.byRegime).filter((r) => r.count > 0);
  expect(regimes.length).toBeGreaterThan(0);
  for (const r of regimes) expect(r.eceBiasCorrected?.sem1).toHaveLength(3);
});

test('--regime-intervals prints each regime\'s bootstrap bias-corrected ECE with its interval (ece_bias_corrected, alias ece_debiased), the same as the --report document holds; ece_interval and calibration_p always', async () => {
  const out = join(dir, 'report-with-regimes.json');
  const args = ['--clustered', sample('clustered.jsonl'), '--graded', sample('graded.jsonl'), '--B', '60'];
  const plain: string[] = [];
  await run(args, { out: (t) => plain.push(t), err: () => undefined });
  for (const r of Object.values(JSON.parse(plain.join('\n')).metrics.by_regime)) {
    expect(r).not.toHaveProperty('ece_bias_corrected');
    expect(r).not.toHaveProperty('ece_debiased');
    expect(r).toHaveProperty('ece_interval');
    expect(r).toHaveProperty('calibration_p');
  }

  const printed: string[] = [];
  expect(await run([...args, '--regime-intervals', '--report', out], { out: (t) => printed.push(t), err: () => undefined })).toBe(3);
  const byRegime = JSON.parse(printed.join('\n')).metrics.by_regime as Record<
    string,
    { count: number; ece_bias_corrected: Record<string, number[]>; ece_debiased: Record<string, number[]>; ece_interval: Record<string, number[]>; calibration_p: Record<string, number> }
  >;
  const back = await parseReportFile(new File([await readFile(out)], 'report.json'));
  if (!back.ok) throw new Error(back.error.message);
  let seen = 0;
  for (const [regime, r] of Object.entries(back.value.models[0].metrics.byRegime)) {
    if (r.count === 0) continue;
    seen++;
    for (const s of ['sem1', 'sem2', 'verbalized'] as const) {
      expect(byRegime[regime].ece_bias_corrected[s]).toEqual(r.eceBiasCorrected![s]);
      expect(byRegime[regime].ece_debiased[s]).toEqual(r.eceBiasCorrected![s]);
      // The regime's one interval, as the report's regime chart draws it.
      expect(byRegime[regime].ece_interval[s]).toEqual(r.eceInference![s]!.interval);
      expect(byRegime[regime].calibration_p[s]).toBe(r.eceInference![s]!.p);
    }
  }
  expect(seen).toBeGreaterThan(0);
});
