/**
 * `semece score` names on stderr every ECE that rests on a bin under 10 questions, per signal and
 * margin regime: the report's per-bin small-sample rule (pipeline/small-bins.ts), not an average.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import run from '../../../../cli/commands/score';
import { parseReportFile } from '../../../../src/formats/report-import';
import { equalWidthCounts, MIN_PER_BIN } from '../../../../src/pipeline/small-bins';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const sample = (name: string) => join(root, 'tests/fixtures/reference-sample', name);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-score-small-bins-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('stderr names each signal and regime whose ECE has bins under 10 questions, with the counts the bins hold', async () => {
  const out = join(dir, 'report.json');
  const err: string[] = [];
  await run(['--clustered', sample('clustered.jsonl'), '--graded', sample('graded.jsonl'), '--B', '20', '--report', out], { out: () => undefined, err: (t) => err.push(t) });
  const back = await parseReportFile(new File([await readFile(out)], 'report.json'));
  if (!back.ok) throw new Error(back.error.message);
  const m = back.value.models[0];
  const text = err.join('\n');
  const label = { sem1: 'Sem1', sem2: 'Sem2', verbalized: 'Verbalized' } as const;
  let named = 0;
  for (const s of ['sem1', 'sem2', 'verbalized'] as const) {
    const counts = m.metrics.signals[s]!.bins.map((b) => b.count);
    const small = counts.filter((c) => c > 0 && c < MIN_PER_BIN);
    const line = `semece score: note:   ${label[s]} ECE: ${small.length} of ${counts.filter((c) => c > 0).length} bins under 10 questions (${small.reduce((a, b) => a + b, 0)} questions)`;
    if (small.length) {
      named++;
      expect(text).toContain(line);
    } else expect(text).not.toContain(`${label[s]} ECE: `);
    for (const regime of ['jensen', 'low-margin', 'large-margin']) {
      const rows = m.questions.filter((q) => q.regime === regime);
      const rc = equalWidthCounts(rows.map((q) => q[s]), 10);
      const rs = rc.filter((c) => c > 0 && c < MIN_PER_BIN);
      const where = `${label[s]} ECE in the ${regime} regime: `;
      if (rs.length) expect(text).toContain(`${where}${rs.length} of ${rc.filter((c) => c > 0).length} bin`);
      else expect(text).not.toContain(where);
    }
  }
  // The reference sample (118 questions over 10 bins) has small bins: the rule is exercised.
  expect(named).toBeGreaterThan(0);
  expect(text).toContain('bins under 10 questions give coarse accuracies');
});
