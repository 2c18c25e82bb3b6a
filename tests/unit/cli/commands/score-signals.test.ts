/**
 * `semece score` with the black-box signals (issue 29) on a hand case of four questions × four
 * samples: every per-question signal, PRR, AUARC and the recalibrated ECEs as worked out by hand
 * below, in the printed document and in the --report document; --signals chooses.
 *
 *   q1 correct    classes 0 0 0 0   answers paris ×4
 *   q2 correct    classes 0 0 1 1   answers paris, paris, lyon, lyon
 *   q3 incorrect  classes 0 0 0 1   answers paris ×3, "the city of paris"
 *   q4 incorrect  classes 0 1 2 3   answers a, b, c, d
 *
 * Confidence forms (model/signals.ts): semantic_entropy exp(−H), num_sets 1/K, eigv 1/EigV = 1/K,
 * degree 1 − Deg = Σ(n_c/m)², eccentricity 1/(1 + Ecc²) = 1/K on a partition, lexical_similarity the
 * mean pairwise ROUGE-L F (q3: three pairs at 1, three at F(paris, the city of paris) = 2·1·¼/(1 + ¼)
 * = 0.4, so 4.2/6 = 0.7; q2: two pairs at 1 of six).
 *
 * Recalibration split at seed 7: numpy's default_rng(7).permutation(4) puts q1, q3 in half A and
 * q2, q4 in half B (core/abstention.ts heldOutSplit), each half one correct and one incorrect.
 * Isotonic: in each half the correct question has the larger score, so each map jumps from 0 to 1
 * between the half's two scores and is clipped outside them: q1 → 1, q3 → 1 (above B's top), q2 → 0,
 * q4 → 0 (below A's bottom), for every black-box signal; ECE = two bins each at accuracy ½ = 0.5.
 * Platt: each half is separated, so the smoothed targets 2/3 and 1/3 are fitted exactly:
 * σ(a·s + b) with a·s₁ + b = ln 2 and a·s₀ + b = −ln 2.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import run from '../../../../cli/commands/score';
import { eceInference } from '../../../../src/core/ece-inference';
import { parseReport } from '../../../../src/formats/report-import';
import { SIGNAL_NAMES } from '../../../../src/model/signals';

const QUESTIONS = [
  { id: 'q1', Y: 1, classes: [0, 0, 0, 0], labels: ['paris'], answers: ['paris', 'paris', 'paris', 'paris'] },
  { id: 'q2', Y: 1, classes: [0, 0, 1, 1], labels: ['paris', 'lyon'], answers: ['paris', 'paris', 'lyon', 'lyon'] },
  { id: 'q3', Y: 0, classes: [0, 0, 0, 1], labels: ['paris', 'the city of paris'], answers: ['paris', 'paris', 'paris', 'the city of paris'] },
  { id: 'q4', Y: 0, classes: [0, 1, 2, 3], labels: ['a', 'b', 'c', 'd'], answers: ['a', 'b', 'c', 'd'] },
];

const SE3 = Math.exp(0.75 * Math.log(0.75) + 0.25 * Math.log(0.25));
const HAND: Record<string, number[]> = {
  semantic_entropy: [1, 0.5, SE3, 0.25],
  num_sets: [1, 0.5, 0.5, 0.25],
  eigv: [1, 0.5, 0.5, 0.25],
  degree: [1, 0.5, 10 / 16, 0.25],
  eccentricity: [1, 0.5, 0.5, 0.25],
  lexical_similarity: [1, 1 / 3, 0.7, 0],
};
const BLACK_BOX = Object.keys(HAND);
const Y = [1, 1, 0, 0];

let dir: string;
let clustered: string;
let graded: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-score-signals-'));
  clustered = join(dir, 'clustered.jsonl');
  graded = join(dir, 'graded.jsonl');
  const rows = QUESTIONS.map((q) => {
    const sizes = q.labels.map((_, k) => q.classes.filter((c) => c === k).length);
    return JSON.stringify({
      id: q.id, question: `${q.id}?`, gold_answer: 'paris', model: 'hand', n_samples: 4,
      results: q.answers.map((a) => `Answer: ${a}`), answer_extracted: q.answers, confidence_verbalized: [0.9, 0.9, 0.9, 0.9],
      n_clusters: q.labels.length, cluster_labels: q.labels, cluster_assignments: q.classes, cluster_sizes: sizes,
      modal_cluster: 0, modal_cluster_label: q.labels[0],
    });
  });
  const grades = QUESTIONS.map((q) => JSON.stringify({ id: q.id, model: 'hand', question: `${q.id}?`, gold_answer: 'paris', modal_cluster_label: q.labels[0], grade: q.Y ? 'CORRECT' : 'INCORRECT', Y: q.Y }));
  await writeFile(clustered, rows.join('\n') + '\n');
  await writeFile(graded, grades.join('\n') + '\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function score(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(['--clustered', clustered, '--graded', graded, '--B', '50', ...args], { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, doc: out.length ? JSON.parse(out.join('')) : undefined, stderr: err.join('\n') };
}

describe('the hand case', () => {
  test('per-question signals, PRR, AUARC and recalibrated ECEs are the hand-computed ones, printed and in --report', async () => {
    const reportFile = join(dir, 'report.json');
    const { code, doc } = await score('--signals', 'all', '--report', reportFile);
    expect(code).toBe(0);
    doc.questions.forEach((q: { signals: Record<string, number> }, i: number) => {
      for (const s of BLACK_BOX) expect(q.signals[s], `${s} of q${i + 1}`).toBeCloseTo(HAND[s][i], 14);
    });
    // Exact where no rounding enters.
    expect(doc.questions.map((q: { signals: Record<string, number> }) => q.signals.num_sets)).toEqual([1, 0.5, 0.5, 0.25]);

    // num_sets: q1 first, q2 and q3 tied, q4 last. Heights after 0…3 rejections: ½, ⅔, (1 + ½)/2 (the
    // tie averaged), 1 → area 35/48; oracle ½, ⅔, 1, 1 → 38/48; random ½ → PRR 11/14.
    for (const s of ['num_sets', 'eigv', 'eccentricity']) {
      expect(doc.metrics.prr[s]).toBeCloseTo(11 / 14, 14);
      expect(doc.metrics.auarc[s]).toBeCloseTo(35 / 48, 14);
    }
    // The others order q1, q3, q2, q4: heights ½, ⅔, ½, 1 → 32/48, PRR (32 − 24)/(38 − 24) = 4/7.
    for (const s of ['semantic_entropy', 'degree', 'lexical_similarity']) {
      expect(doc.metrics.prr[s]).toBeCloseTo(4 / 7, 14);
      expect(doc.metrics.auarc[s]).toBeCloseTo(2 / 3, 14);
    }

    const iso = eceInference([1, 0, 1, 0], Y, { bins: 10, seed: 7 });
    for (const s of BLACK_BOX) {
      const r = doc.metrics.ece_recalibrated[s];
      expect(r.isotonic.ece).toBe(0.5);
      expect(r.isotonic.interval).toEqual(iso.interval);
      expect(r.isotonic.p).toBe(iso.p);
    }
    // num_sets, Platt. Half A (q1 s = 1 correct, q3 s = ½): a = 4 ln 2, b = −3 ln 2 → q2 (s = ½) 1/3,
    // q4 (s = ¼) 1/5. Half B (q2 ½ correct, q4 ¼): a = 8 ln 2, b = −3 ln 2 → q1 32/33, q3 2/3. Each in
    // its own bin: ECE = (1/33 + 2/3 + 2/3 + 1/5)/4 = 43/110.
    expect(doc.metrics.ece_recalibrated.num_sets.platt.ece).toBeCloseTo(43 / 110, 9);
    // degree, Platt: half A (q1 1, q3 ⅝): a = (16/3) ln 2, b = −(13/3) ln 2 → q2 1/(1 + 2^(5/3)), q4 1/9;
    // half B as above → q1 32/33, q3 (s = ⅝) 4/5.
    const q2 = 1 / (1 + 2 ** (5 / 3));
    expect(doc.metrics.ece_recalibrated.degree.platt.ece).toBeCloseTo((1 / 33 + (1 - q2) + 4 / 5 + 1 / 9) / 4, 9);

    // The report document holds the same numbers.
    const parsed = parseReport(await readFile(reportFile, 'utf8'));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const m = parsed.value.models[0].metrics;
    for (const s of BLACK_BOX) {
      expect(m.rejection![s as 'eigv']).toEqual({ prr: doc.metrics.prr[s], auarc: doc.metrics.auarc[s] });
      expect(m.recalibration!.isotonic[s as 'eigv']).toEqual(doc.metrics.ece_recalibrated[s].isotonic);
      expect(m.recalibration!.platt[s as 'eigv']).toEqual(doc.metrics.ece_recalibrated[s].platt);
      parsed.value.models[0].questions.forEach((q, i) => expect(q.signals![s as 'eigv']).toBeCloseTo(HAND[s][i], 14));
    }
    expect(m.recalibration!.seed).toBe(7);
  });

  test('a signal that is not a probability has ranking metrics and a recalibrated ECE but no raw calibration metric; a probability has both', async () => {
    const { doc } = await score('--signals', 'all');
    expect(Object.keys(doc.metrics.auroc)).toEqual(['sem1', 'sem2', 'verbalized', 'entropyConfidence', ...BLACK_BOX]);
    expect(Object.keys(doc.metrics.ece_recalibrated)).toEqual(Object.keys(doc.metrics.auroc));
    expect(Object.keys(doc.metrics.ece)).toEqual(['sem1', 'sem2', 'verbalized', 'entropyConfidence']);
    expect(Object.keys(doc.metrics.ece_interval)).toEqual(['sem1', 'sem2', 'verbalized', 'entropyConfidence']);
    // The confidence form of semantic entropy is entropy confidence, number for number.
    expect(doc.questions.map((q: { signals: Record<string, number> }) => q.signals.semantic_entropy)).toEqual(doc.questions.map((q: { signals: Record<string, number> }) => q.signals.entropyConfidence));
  });
});

describe('--signals', () => {
  test('without it, the signals that are probabilities and the rows allow, and no note for the others', async () => {
    const { code, doc, stderr } = await score();
    expect(code).toBe(0);
    expect(Object.keys(doc.metrics.auroc)).toEqual(['sem1', 'sem2', 'verbalized', 'entropyConfidence']);
    expect(Object.keys(doc.questions[0].signals)).toEqual(['sem1', 'sem2', 'verbalized', 'entropyConfidence']);
    expect(stderr).not.toContain('is not scored');
  });

  test('scores the paper three and the signals named, nothing else', async () => {
    const { code, doc } = await score('--signals', 'eigv,degree');
    expect(code).toBe(0);
    expect(Object.keys(doc.metrics.auroc)).toEqual(['sem1', 'sem2', 'verbalized', 'eigv', 'degree']);
    expect(Object.keys(doc.metrics.prr)).toEqual(['sem1', 'sem2', 'verbalized', 'eigv', 'degree']);
    expect(Object.keys(doc.questions[0].signals)).toEqual(['sem1', 'sem2', 'verbalized', 'eigv', 'degree']);
  });

  test('an unknown name is a usage error listing the valid ones', async () => {
    const { code, doc, stderr } = await score('--signals', 'eigv,p_truth');
    expect(code).toBe(2);
    expect(doc).toBeUndefined();
    expect(stderr).toContain(`--signals: unknown signal 'p_truth'; valid: all, ${SIGNAL_NAMES.join(', ')}`);
  });

  test('a known signal these rows cannot give is said on stderr, not printed', async () => {
    const { code, doc, stderr } = await score('--signals', 'stated,lexical_similarity');
    expect(code).toBe(0);
    expect(Object.keys(doc.metrics.auroc)).toEqual(['sem1', 'sem2', 'verbalized', 'lexical_similarity']);
    expect(stderr).toContain('semece score: note: stated is not scored');
  });
});
