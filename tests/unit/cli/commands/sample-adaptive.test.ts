/**
 * `semece sample --adaptive` against the loopback mock, then `cluster`, `grade` and `score` on its
 * rows: easy questions (one answer) stop early, split ones reach --samples; each row carries its
 * selection block; `semece score` gives each such row Sem2 = adaptiveSem2; repeating the command
 * asks nothing, a fixed-n run after it pays only for the slots it lacks; bad flags are usage errors.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import sample from '../../../../cli/commands/sample.ts';
import cluster from '../../../../cli/commands/cluster.ts';
import grade from '../../../../cli/commands/grade.ts';
import score from '../../../../cli/commands/score.ts';
import verify from '../../../../cli/commands/verify.ts';
import { MockProviderServer } from '../../../mock/provider-server.ts';
import { DEFAULT_ADAPTIVE_RULE, planAdaptive } from '../../../../src/core/adaptive-rule.ts';
import { adaptiveSem2 } from '../../../../src/core/adaptive-sem2.ts';
import { answerKey } from '../../../../src/pipeline/adaptive-slots.ts';
import { parseReport } from '../../../../src/formats/report-import.ts';

const KEY = 'sk-zq81xv72wp93-0123456789';
const MAX = 40;
const QUESTIONS = [
  { id: 'fr', question: 'What is the capital of France?', answer: 'Paris' },
  { id: 'col', question: 'Which colour is the flag?', answer: 'Red' },
  { id: 'it', question: 'What is the capital of Italy?', answer: 'Rome' },
];
const split = (j: number) => (j % 2 === 0 ? 'Red' : 'Blue');

let mock: MockProviderServer;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-adaptive-'));
  await writeFile(join(dir, 'qs.jsonl'), QUESTIONS.map((q) => JSON.stringify(q)).join('\n') + '\n');
  mock = await MockProviderServer.start(
    { apiKey: KEY, questions: [{ match: QUESTIONS[0].question, id: 'fr', answers: { Paris: 1 } }, { match: QUESTIONS[1].question, id: 'col', answers: { Red: 1 } }, { match: QUESTIONS[2].question, id: 'it', answers: { Rome: 1 } }] },
    { responder: (req, j) => (req.user.includes('flag') ? `Answer: ${split(j)}\nConfidence: 60%` : undefined) },
  );
});
afterEach(async () => {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

async function cli(command: typeof sample, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command(args, { out: (s) => out.push(s), err: (s) => err.push(s), env: { OPENAI_API_KEY: KEY } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
const base = () => ['--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'gpt-4o-mini', '--dataset', join(dir, 'qs.jsonl'), '--out', join(dir, 'rows.jsonl'), '--samples', String(MAX)];
const rowsOf = async (file: string) => (await readFile(join(dir, file), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));

/** The rule's outcome on a question whose slots answer `answerAt(i)`, under the flags' settings. */
function outcome(answerAt: (i: number) => string, settings = DEFAULT_ADAPTIVE_RULE) {
  const plan = planAdaptive(Array.from({ length: MAX }, (_, i) => answerKey(answerAt(i))), { ...settings, maxSamples: MAX });
  return { selection: plan.selection, samples: plan.selection + plan.heldOut };
}

describe('semece sample --adaptive', () => {
  it('stops easy questions early, takes split ones to --samples, and semece score gives them adaptive Sem2', async () => {
    const r = await cli(sample, [...base(), '--adaptive']);
    expect(r.code, r.err).toBe(0);
    const easy = outcome(() => 'Paris');
    const splitOne = outcome(split);
    expect(easy.samples).toBeLessThan(MAX);
    expect(splitOne.samples).toBe(MAX);
    const rows = await rowsOf('rows.jsonl');
    const byId = new Map(rows.map((x) => [x.id, x]));
    for (const id of ['fr', 'it']) expect([byId.get(id).n_samples, byId.get(id).selection_samples], id).toEqual([easy.samples, easy.selection]);
    expect([byId.get('col').n_samples, byId.get('col').selection_samples]).toEqual([splitOne.samples, splitOne.selection]);
    expect(byId.get('col').answer_extracted).toEqual(Array.from({ length: MAX }, (_, j) => split(j)));
    // What the mock served is what the rows use: no sample drawn beyond the rule's.
    expect(mock.stats().served).toEqual({ fr: easy.samples, it: easy.samples, col: splitOne.samples });
    const summary = JSON.parse(r.out);
    expect(summary.adaptive).toEqual({ rule: DEFAULT_ADAPTIVE_RULE, maxSamples: MAX, samplesUsed: 2 * easy.samples + MAX, savedAgainstFixed: 2 * (MAX - easy.samples) });

    expect((await cli(cluster, ['--method', 'exact', '--in', join(dir, 'rows.jsonl'), '--out', join(dir, 'clustered.jsonl')])).code).toBe(0);
    expect((await cli(grade, ['--method', 'alias', '--in', join(dir, 'clustered.jsonl'), '--out', join(dir, 'graded.jsonl')])).code).toBe(0);
    const clustered = await rowsOf('clustered.jsonl');
    expect(clustered.map((x) => x.selection_samples)).toEqual(rows.map((x) => x.selection_samples));
    const s = await cli(score, ['--clustered', join(dir, 'clustered.jsonl'), '--graded', join(dir, 'graded.jsonl'), '--B', '20', '--report', join(dir, 'report.json')]);
    expect(s.code, s.err).toBe(0);
    // The report: the most samples a question has, each question's block, and it opens.
    const doc = parseReport(await readFile(join(dir, 'report.json'), 'utf8'));
    if (!doc.ok) throw new Error(doc.error.message);
    expect(doc.value.settings.samples).toBe(MAX);
    expect(doc.value.models[0].questions.map((q) => [q.id, q.n, q.selectionSamples])).toEqual(rows.map((x) => [x.id, x.n_samples, x.selection_samples]));
    const v = await cli(verify, [join(dir, 'report.json'), '--clustered', join(dir, 'clustered.jsonl'), '--graded', join(dir, 'graded.jsonl')]);
    expect(v.code, v.out + v.err).toBe(0);
    const scored = JSON.parse(s.out);
    for (const q of scored.questions) {
      const row = clustered.find((x) => x.id === q.id);
      expect(q.selection_samples, q.id).toBe(row.selection_samples);
      expect(q.sem2, q.id).toBe(adaptiveSem2(row.cluster_assignments, row.selection_samples));
    }
    // The split question's selection block is Red, Blue, Red, Blue, Red: Red's share of the rest.
    expect(scored.questions.find((q: { id: string }) => q.id === 'col').sem2).toBeCloseTo(
      Array.from({ length: MAX - splitOne.selection }, (_, k) => split(splitOne.selection + k)).filter((a) => a === 'Red').length / (MAX - splitOne.selection),
      15,
    );
  });

  it('--first-round and --max-selection shape the rounds; the same command again asks nothing; fixed n then pays only for the missing slots', async () => {
    const flags = ['--adaptive', '--first-round', '4', '--round-size', '2', '--max-selection', '8'];
    const settings = { ...DEFAULT_ADAPTIVE_RULE, firstRound: 4, roundSize: 2, maxSelection: 8 };
    expect((await cli(sample, [...base(), ...flags])).code).toBe(0);
    const easy = outcome(() => 'Paris', settings);
    const splitOne = outcome(split, settings);
    expect(easy.selection).toBe(8);
    expect(mock.stats().served).toEqual({ fr: easy.samples, it: easy.samples, col: splitOne.samples });
    const requests = mock.stats().requests;
    const again = await cli(sample, [...base(), ...flags]);
    expect(again.code).toBe(0);
    expect(mock.stats().requests).toBe(requests);
    expect(JSON.parse(again.out)).toMatchObject({ fetched: 0, fromCache: 2 * easy.samples + splitOne.samples });

    const fixed = await cli(sample, base());
    expect(fixed.code).toBe(0);
    expect(JSON.parse(fixed.out)).toMatchObject({ fetched: 3 * MAX - (2 * easy.samples + splitOne.samples), fromCache: 2 * easy.samples + splitOne.samples });
    expect(mock.stats().served).toEqual({ fr: MAX, it: MAX, col: MAX });
    const rows = await rowsOf('rows.jsonl');
    for (const row of rows) {
      expect(row.n_samples).toBe(MAX);
      expect(row.selection_samples).toBeUndefined();
    }
  });

  it('refuses the round flags without --adaptive and a rule that does not fit --samples', async () => {
    const lone = await cli(sample, [...base(), '--first-round', '3']);
    expect(lone.code).toBe(2);
    expect(lone.err).toMatch(/--first-round, --round-size and --max-selection need --adaptive/);
    const tooBig = await cli(sample, [...base(), '--adaptive', '--first-round', String(MAX)]);
    expect(tooBig.code).toBe(2);
    expect(tooBig.err).toMatch(/--adaptive: the first round \(40\) must be smaller than the maximum samples per question \(40\)/);
    expect(mock.stats().requests).toBe(0);
    const help = await cli(sample, ['--help']);
    expect(help.out).toMatch(/--adaptive {11}sample in rounds/);
    expect(help.out).toMatch(/--first-round K/);
    expect(help.out).toMatch(/--round-size K/);
  });
});
