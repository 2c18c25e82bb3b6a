/**
 * `semece compare` on two reports made by the real pipeline (sample → cluster → grade → score
 * --report) against the loopback mock provider, one run per answer distribution: the differences
 * have the sign of, and intervals covering, the differences known from the mock's distributions.
 *
 * Known values: every question of a run has the same two-answer distribution (gold with
 * probability p, one wrong answer otherwise) and a fixed stated confidence, n = 9 samples (odd:
 * no tie for the modal answer). With G ~ Binomial(9, p) gold answers, Sem1 = max(G, 9 − G)/9 and
 * the answer is correct when G ≥ 5; the population's 10-bin ECE follows exactly from the binomial
 * (each possible Sem1 value 5/9 … 1 falls in its own bin). Verbalized is the stated confidence
 * on every question, so its ECE is |P(G ≥ 5) − confidence|. The mock's answers are a pure
 * function of (seed, question, sample), so the test is deterministic.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import sample from '../../../../cli/commands/sample';
import cluster from '../../../../cli/commands/cluster';
import grade from '../../../../cli/commands/grade';
import score from '../../../../cli/commands/score';
import compare from '../../../../cli/commands/compare';
import { MockProviderServer } from '../../../mock/provider-server';
import { isProbabilitySignal, type SignalName } from '../../../../src/model/signals';

const KEY = 'sk-compare-test-key-1234567890';
const N_QUESTIONS = 150;
const N = 9;
const RUNS = {
  good: { p: 0.9, confidence: 90 },
  over: { p: 0.55, confidence: 95 },
};

let dir: string;
let mock: MockProviderServer;
const questions = Array.from({ length: N_QUESTIONS }, (_, i) => ({ id: `q${i}`, question: `Which token is number ${i}?`, answer: `gold${i}` }));

function binom(k: number, p: number): number {
  let c = 1;
  for (let j = 0; j < k; j++) c = (c * (N - j)) / (j + 1);
  return c * p ** k * (1 - p) ** (N - k);
}
/** Population 10-bin ECE of Sem1 for gold probability p (each Sem1 value in its own bin). */
function sem1Ece(p: number): number {
  const gap = new Map<number, number>();
  for (let k = 0; k <= N; k++) {
    const conf = Math.max(k, N - k) / N;
    gap.set(conf, (gap.get(conf) ?? 0) + binom(k, p) * ((k > N - k ? 1 : 0) - conf));
  }
  return [...gap.values()].reduce((s, g) => s + Math.abs(g), 0);
}
const accuracy = (p: number) => Array.from({ length: N - 4 }, (_, j) => binom(j + 5, p)).reduce((a, b) => a + b, 0);
const verbalizedEce = (r: { p: number; confidence: number }) => Math.abs(accuracy(r.p) - r.confidence / 100);

/** The key goes only to `sample` (stderr is scrubbed of every fragment of the key in the environment). */
async function cli(command: (argv: string[], io: object) => Promise<number>, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = command === sample ? { OPENAI_API_KEY: KEY } : {};
  const code = await command(args, { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function report(name: keyof typeof RUNS): Promise<string> {
  const r = RUNS[name];
  mock.configure({
    questions: questions.map((q) => ({ match: q.question, id: q.id, answers: { [q.answer]: r.p, [`wrong${q.id}`]: 1 - r.p }, confidence: r.confidence })),
  });
  const f = (s: string) => join(dir, `${name}-${s}`);
  const s = await cli(sample, ['--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', `model-${name}`, '--dataset', join(dir, 'qs.jsonl'), '--out', f('sampled.jsonl'), '--samples', String(N)]);
  expect(s.code, s.err).toBe(0);
  expect((await cli(cluster, ['--method', 'exact', '--in', f('sampled.jsonl'), '--out', f('clustered.jsonl')])).code).toBe(0);
  expect((await cli(grade, ['--method', 'alias', '--in', f('clustered.jsonl'), '--out', f('graded.jsonl')])).code).toBe(0);
  const sc = await cli(score, ['--clustered', f('clustered.jsonl'), '--graded', f('graded.jsonl'), '--B', '50', '--signals', 'all', '--report', f('report.json')]);
  expect(sc.code, sc.err).toBe(0);
  return f('report.json');
}

let files: string[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-compare-'));
  await writeFile(join(dir, 'qs.jsonl'), questions.map((q) => JSON.stringify(q)).join('\n') + '\n');
  mock = await MockProviderServer.start({ apiKey: KEY, seed: 3 });
  files = [await report('good'), await report('over')];
}, 120_000);
afterAll(async () => {
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('semece compare on two mock runs', () => {
  test('right sign, intervals covering the known differences, Holm stated', async () => {
    const r = await cli(compare, [...files, '--B', '1000']);
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.correction).toBe('holm');
    expect(doc.pairs).toHaveLength(1);
    const pair = doc.pairs[0];
    expect(pair).toMatchObject({ a: 'model-good', b: 'model-over', shared: N_QUESTIONS, only_a: [], only_b: [] });
    const known = {
      sem1: sem1Ece(RUNS.over.p) - sem1Ece(RUNS.good.p),
      verbalized: verbalizedEce(RUNS.over) - verbalizedEce(RUNS.good),
      accuracy: accuracy(RUNS.over.p) - accuracy(RUNS.good.p),
    };
    // The two signals move in opposite directions: the overconfident run's Sem1 is the better calibrated.
    expect(known.sem1).toBeLessThan(-0.05);
    expect(known.verbalized).toBeGreaterThan(0.2);
    const check = (d: { difference: number; interval: [number, number]; p_adjusted: number }, truth: number, detected: boolean) => {
      expect(Math.sign(d.difference)).toBe(Math.sign(truth));
      expect(d.interval[0]).toBeLessThanOrEqual(truth);
      expect(d.interval[1]).toBeGreaterThanOrEqual(truth);
      if (detected) expect(d.p_adjusted).toBeLessThan(0.05);
    };
    // The ECE's interval joins each model's headline interval (Bonferroni): honest under any
    // dependence, and conservative; at 150 questions it detects the verbalized difference (0.2+)
    // but not Sem1's (about 0.05), which only needs to be covered.
    expect(doc.ece_method).toBe('consistency-inversion-bonferroni');
    check(pair.metrics.ece.sem1, known.sem1, false);
    check(pair.metrics.ece.verbalized, known.verbalized, true);
    check(pair.metrics.accuracy, known.accuracy, true);
    // ECE is compared for the signals that are probabilities; the confidence forms (issue 29) only by their ranking metrics.
    expect(doc.family_size.ece).toBe(pair.signals.filter((s: SignalName) => isProbabilitySignal(s)).length);
    expect(doc.family_size.ece).toBeLessThan(pair.signals.length);
    expect(Object.keys(pair.metrics.auroc)).toEqual(pair.signals);
    expect(Object.keys(pair.metrics.ece)).toEqual(pair.signals.filter((s: SignalName) => isProbabilitySignal(s)));
  });

  test('the reversed order flips every difference; the table says what differs before any number', async () => {
    const [ab, ba] = await Promise.all([cli(compare, [...files, '--B', '200']), cli(compare, [files[1], files[0], '--B', '200'])]);
    const x = JSON.parse(ab.out).pairs[0].metrics.ece.verbalized;
    const y = JSON.parse(ba.out).pairs[0].metrics.ece.verbalized;
    expect(y.difference).toBeCloseTo(-x.difference, 12);
    const t = await cli(compare, [...files, '--B', '200', '--format', 'table']);
    expect(t.code).toBe(0);
    const lines = t.out.split('\n');
    expect(lines[0]).toBe(`model-good vs model-over: ${N_QUESTIONS} shared questions`);
    expect(t.out).toMatch(/Holm/);
  });

  test('an unreadable or invalid file is named, exit 2; one entry is too few', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{"format": "something-else"}');
    const missing = await cli(compare, [files[0], join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`cannot read ${join(dir, 'nope.json')}: no such file`);
    const invalid = await cli(compare, [files[0], bad]);
    expect(invalid.code).toBe(2);
    expect(invalid.err).toContain(`${bad} is not a usable report`);
    const one = await cli(compare, [files[0]]);
    expect(one.code).toBe(2);
    expect(one.err).toMatch(/comparing needs two or more/);
  });

  test('--leaderboard ranks five entries and prints every format', async () => {
    // Five files: the two runs and three copies under other model names (a copy ties with its original).
    const five = [...files];
    for (const [k, from] of [[0, 0], [1, 1], [2, 0]]) {
      const doc = JSON.parse(await readFile(files[from], 'utf8'));
      doc.models[0].model = `copy-${k}`;
      const f = join(dir, `copy-${k}.json`);
      await writeFile(f, JSON.stringify(doc));
      five.push(f);
    }
    const j = await cli(compare, [...five, '--leaderboard', '--signal', 'verbalized', '--B', '200']);
    expect(j.code, j.err).toBe(0);
    const lb = JSON.parse(j.out);
    expect(lb.signal).toBe('verbalized');
    expect(lb.entries).toHaveLength(5);
    for (const e of lb.entries) expect(Object.keys(e).sort()).toEqual(['accuracy', 'auroc', 'brier', 'ece', 'ece_interval', 'name', 'p_first', 'questions', 'rank', 'rank_interval']);
    // The well-calibrated run and its two copies first, the overconfident one and its copy last.
    expect(lb.entries.slice(3).map((e: { name: string }) => e.name).sort()).toEqual(['copy-1', 'model-over']);
    expect(lb.entries.slice(3).every((e: { p_first: number }) => e.p_first === 0)).toBe(true);
    const rows = async (format: string) => {
      const r = await cli(compare, [...five, '--leaderboard', '--signal', 'verbalized', '--B', '50', '--format', format]);
      expect(r.code, r.err).toBe(0);
      return r.out;
    };
    expect((await rows('csv')).split('\r\n')).toHaveLength(6);
    expect((await rows('markdown')).trimEnd().split('\n')).toHaveLength(7);
    expect((await rows('latex')).match(/ \\\\$/gm)).toHaveLength(6);
    expect((await rows('table')).split('\n')[0]).toMatch(/^Rank\s+Model\s+Questions/);
  });
});
