/**
 * Coverage of the audit's intervals (issue 30; docs/STATISTICS.md, "Audits"), by seeded
 * simulation: `npm run bench -- audit-coverage`. SEMECE_AUDIT_REPS sets the audits simulated per
 * cell (default 400), SEMECE_AUDIT_B the bootstrap resamples (default 500). Printed, never asserted.
 *
 * (a) Cohen's κ, percentile bootstrap over the audited questions: automatic grades C/I/N with
 *     shares .6/.3/.1, the person agrees with probability .85, else picks one of the other two
 *     categories at random; true κ from the joint distribution. Also the raw agreement's Wilson
 *     interval, and the plan: at kappaSampleSize's n for half-width 0.1 (p_o .85, p_e from the
 *     automatic shares), the mean half-width the bootstrap interval achieves.
 * (b) Mean ARI and pooled pairwise precision, bootstrap over questions: 10 answers per question in
 *     2–4 automatic classes; the person's partition is the automatic one with, on 30 % of
 *     questions, one class split in two (a wrong merge by the clusterer) or two classes merged;
 *     the truth is the mean over 200,000 questions.
 * (c) The ECE shift of a 2,000-question set (Sem1-like confidences k/10, overconfident outcomes),
 *     10 % of questions with a wrong merge (the person's Sem1 lower by 0.1–0.3) and 5 % with a
 *     wrong grade; the truth is the shift of the whole set corrected; k questions audited by
 *     simple random sampling (and stratified by confidence ≥ 0.8, proportional), the difference
 *     estimator's Rao–Wu bootstrap interval.
 */
import { gradeAgreement } from '../src/core/grade-agreement';
import { kappaSampleSize, chanceAgreement } from '../src/core/audit-sample-size';
import { adjustedRandIndex, pairCounts, pairwisePrecisionRecall, partitionAgreement, type PairCounts } from '../src/core/partition-agreement';
import { eceShift } from '../src/core/ece-shift';
import { eceEqualWidth } from '../src/core/ece';
import { defaultRng, type Generator } from '../src/core/rng';

function envInt(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
}
const REPS = envInt('SEMECE_AUDIT_REPS', 400);
const B = envInt('SEMECE_AUDIT_B', 500);

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const se = (p: number, n: number) => `±${(100 * Math.sqrt((p * (1 - p)) / n)).toFixed(1)}`;

// (a) grades
const SHARES = [0.6, 0.3, 0.1];
const AGREE = 0.85;
function drawGrades(rng: Generator, k: number): { auto: Int32Array; person: Int32Array } {
  const auto = new Int32Array(k), person = new Int32Array(k);
  for (let i = 0; i < k; i++) {
    const u = rng.random();
    const a = u < SHARES[0]! ? 0 : u < SHARES[0]! + SHARES[1]! ? 1 : 2;
    auto[i] = a;
    person[i] = rng.random() < AGREE ? a : (a + 1 + (rng.random() < 0.5 ? 0 : 1)) % 3;
  }
  return { auto, person };
}
function trueKappa(): number {
  // p(a, b) = s_a·.85 on the diagonal, s_a·.075 off it.
  let po = 0;
  const cols = [0, 0, 0];
  for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) {
    const p = SHARES[a]! * (a === b ? AGREE : (1 - AGREE) / 2);
    if (a === b) po += p;
    cols[b] += p;
  }
  const pe = SHARES.reduce((s, v, c) => s + v * cols[c]!, 0);
  return (po - pe) / (1 - pe);
}

function gradesCell(k: number, rng: Generator): string {
  const kappa = trueKappa();
  let covered = 0, coveredAgree = 0, width = 0;
  for (let r = 0; r < REPS; r++) {
    const { auto, person } = drawGrades(rng, k);
    const g = gradeAgreement(auto, person, 3, { B, seed: r });
    if (g.kappa[1] <= kappa && kappa <= g.kappa[2]) covered++;
    if (g.agreement[1] <= AGREE && AGREE <= g.agreement[2]) coveredAgree++;
    width += (g.kappa[2] - g.kappa[1]) / 2;
  }
  return `k=${String(k).padStart(4)}  κ covers ${pct(covered / REPS)} ${se(covered / REPS, REPS)}, mean half-width ${(width / REPS).toFixed(3)}; agreement (Wilson) covers ${pct(coveredAgree / REPS)}`;
}

// (b) partitions
function randomPartition(rng: Generator, n: number): Int32Array {
  const K = 2 + rng.interval(2);
  return Int32Array.from({ length: n }, () => rng.interval(K - 1));
}
function personOf(rng: Generator, auto: Int32Array): Int32Array {
  const person = auto.slice();
  if (rng.random() >= 0.3) return person;
  const K = Math.max(...auto) + 1;
  if (rng.random() < 0.5) {
    // split class c: members go to a new class with probability 1/2 (the clusterer merged two meanings)
    const c = rng.interval(K - 1);
    for (let i = 0; i < person.length; i++) if (auto[i] === c && rng.random() < 0.5) person[i] = K;
  } else if (K > 1) {
    for (let i = 0; i < person.length; i++) if (person[i] === 1) person[i] = 0;
  }
  return person;
}
function partitionsCell(k: number, rng: Generator, truth: { ari: number; precision: number }): string {
  let coveredAri = 0, coveredP = 0;
  for (let r = 0; r < REPS; r++) {
    const per: PairCounts[] = [];
    for (let q = 0; q < k; q++) {
      const auto = randomPartition(rng, 10);
      per.push(pairCounts(auto, personOf(rng, auto)));
    }
    const a = partitionAgreement(per, { B, seed: r });
    if (a.ari[1] <= truth.ari && truth.ari <= a.ari[2]) coveredAri++;
    if (a.precision[1] <= truth.precision && truth.precision <= a.precision[2]) coveredP++;
  }
  return `k=${String(k).padStart(4)}  mean ARI covers ${pct(coveredAri / REPS)} ${se(coveredAri / REPS, REPS)}; pairwise precision covers ${pct(coveredP / REPS)} ${se(coveredP / REPS, REPS)}`;
}

// (c) the ECE shift
function population(rng: Generator, N: number) {
  const conf = new Float64Array(N), y = new Float64Array(N), c2 = new Float64Array(N), y2 = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    let hits = 3;
    for (let j = 0; j < 7; j++) if (rng.random() < 0.7) hits++;
    conf[i] = hits / 10;
    y[i] = rng.random() < conf[i]! - 0.1 ? 1 : 0;
    c2[i] = conf[i]!;
    y2[i] = y[i]!;
    if (rng.random() < 0.1) c2[i] = Math.max(0.1, conf[i]! - (1 + rng.interval(2)) / 10);
    if (rng.random() < 0.05) y2[i] = 1 - y[i]!;
  }
  return { conf, y, c2, y2 };
}
function shiftCell(k: number, rng: Generator, stratified: boolean): string {
  const N = 2000;
  const p = population(defaultRng(99), N);
  const truth = eceEqualWidth(p.c2, p.y2, 10) - eceEqualWidth(p.conf, p.y, 10);
  const strata = Int32Array.from(p.conf, (c) => (c >= 0.8 ? 1 : 0));
  let covered = 0, width = 0, bias = 0, coveredBasic = 0, biasBc = 0;
  for (let r = 0; r < REPS; r++) {
    let audited: Int32Array;
    if (stratified) {
      // Proportional allocation: each stratum's share of k, drawn without replacement within it.
      const parts = [0, 1].map((h) => Int32Array.from(Array.from(strata).flatMap((s, i) => (s === h ? [i] : []))));
      const quota = parts.map((ids) => Math.round((k * ids.length) / N));
      audited = Int32Array.from(parts.flatMap((ids, h) => [...rng.permutation(ids.length).slice(0, quota[h])].map((j) => ids[j]!)));
    } else {
      audited = rng.permutation(N).slice(0, k);
    }
    const s = eceShift(
      { conf: p.conf, y: p.y, audited, correctedConf: Float64Array.from(audited, (i) => p.c2[i]!), correctedY: Float64Array.from(audited, (i) => p.y2[i]!), ...(stratified ? { strata } : {}) },
      { bins: 10, B, seed: r },
    );
    if (s.interval[0] <= truth && truth <= s.interval[1]) covered++;
    if (s.basicInterval[0] <= truth && truth <= s.basicInterval[1]) coveredBasic++;
    biasBc += s.biasCorrected - truth;
    width += (s.interval[1] - s.interval[0]) / 2;
    bias += s.estimate - truth;
  }
  return `k=${String(k).padStart(4)}${stratified ? ' stratified' : '           '}  true shift ${truth.toFixed(4)}; covers ${pct(covered / REPS)} ${se(covered / REPS, REPS)}, mean half-width ${(width / REPS).toFixed(4)}, mean error ${(bias / REPS).toFixed(4)}; basic covers ${pct(coveredBasic / REPS)}, bias-corrected mean error ${(biasBc / REPS).toFixed(4)}`;
}

export default async function main(): Promise<void> {
  console.log(`audit coverage: ${REPS} simulated audits per cell, B = ${B}, nominal 95%`);
  const rng = defaultRng(2026);
  console.log(`(a) Cohen's kappa (true ${trueKappa().toFixed(4)}), raw agreement (true ${AGREE})`);
  for (const k of [20, 50, 100, 200]) console.log('  ' + gradesCell(k, rng));
  const planned = kappaSampleSize({ halfWidth: 0.1, expectedAgreement: AGREE, chanceAgreement: chanceAgreement(SHARES.map((s) => s * 1000)) });
  console.log(`  plan: kappaSampleSize(half-width 0.1, p_o 0.85, p_e ${chanceAgreement(SHARES).toFixed(2)}) = ${planned}`);
  console.log('  ' + gradesCell(planned, rng));

  const truthRng = defaultRng(7);
  let ari = 0;
  const pooled = { tp: 0, fp: 0, fn: 0, tn: 0 };
  const M = 200_000;
  for (let q = 0; q < M; q++) {
    const auto = randomPartition(truthRng, 10);
    const person = personOf(truthRng, auto);
    ari += adjustedRandIndex(auto, person);
    const c = pairCounts(auto, person);
    pooled.tp += c.tp; pooled.fp += c.fp; pooled.fn += c.fn; pooled.tn += c.tn;
  }
  const truth = { ari: ari / M, precision: pairwisePrecisionRecall(pooled).precision };
  console.log(`(b) partitions (true mean ARI ${truth.ari.toFixed(4)}, pooled precision ${truth.precision.toFixed(4)})`);
  for (const k of [20, 50, 200]) console.log('  ' + partitionsCell(k, rng, truth));

  console.log('(c) ECE shift of Sem1 over 2,000 questions (difference estimator, Rao–Wu bootstrap)');
  for (const k of [50, 200, 500]) console.log('  ' + shiftCell(k, rng, false));
  for (const k of [50, 200]) console.log('  ' + shiftCell(k, rng, true));
}
