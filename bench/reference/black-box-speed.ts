/**
 * How fast the black-box uncertainty signals are at the paper's scale: 40,000 questions × 50
 * samples (synthetic partitions, 1–8 classes). Prints the partition path (NumSets, semantic
 * entropy, EigV/Deg/Ecc closed forms) for all questions, and the general similarity-matrix path
 * and lexical similarity per question, extrapolated. Figures are printed, never asserted; the CPU
 * time (this process's user + system) is the fairer figure on a busy machine.
 *
 *   npx tsx bench/reference/black-box-speed.ts
 */
import { blackBoxUncertainty } from '../../src/core/black-box-uncertainty';
import { graphUncertainty } from '../../src/core/graph-uncertainty';
import { lexicalSimilarity } from '../../src/core/lexical-similarity';
import { defaultRng } from '../../src/core/rng';

const QUESTIONS = 40_000;
const SAMPLES = 50;

const rng = defaultRng(29);
const labels = Array.from({ length: QUESTIONS }, () => {
  const k = 1 + Math.floor(rng.random() * 8);
  return Int32Array.from({ length: SAMPLES }, () => Math.floor(rng.random() * rng.random() * k));
});

function time(label: string, count: number, scale: number, run: (i: number) => number): void {
  let sink = 0;
  run(0); // warm-up
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < count; i++) sink += run(i);
  const cpu = process.cpuUsage(cpuStart);
  const ms = performance.now() - start;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const factor = scale / count;
  const note = scale === count ? '' : ` (${count} timed, ×${factor} for ${scale.toLocaleString('en')})`;
  console.log(`${label}: ${(ms * factor).toFixed(0)} ms wall, ${(cpuMs * factor).toFixed(0)} ms CPU, for ${scale.toLocaleString('en')} questions × ${SAMPLES} samples${note}  [checksum ${sink.toFixed(3)}]`);
}

time('partition path (all five partition signals)', QUESTIONS, QUESTIONS, (i) => {
  const v = blackBoxUncertainty({ labels: labels[i] });
  return v.semanticEntropy + v.numSets + v.eigV + v.deg + v.ecc;
});

// A dense noisy similarity matrix per question (entailment-like), built outside the timed loop.
const matrices = labels.slice(0, 200).map((l) => {
  const w = new Float64Array(SAMPLES * SAMPLES);
  for (let i = 0; i < SAMPLES; i++) for (let j = 0; j < SAMPLES; j++) w[i * SAMPLES + j] = l[i] === l[j] ? 0.7 + 0.3 * rng.random() : 0.3 * rng.random();
  return w;
});
time('similarity-matrix path (EigV, Deg, Ecc; Householder + QL with eigenvectors)', matrices.length, QUESTIONS, (i) => {
  const g = graphUncertainty(matrices[i], SAMPLES);
  return g.eigV + g.deg + g.ecc;
});

const WORDS = ['the', 'answer', 'is', 'Paris', 'France', 'capital', 'of', 'city', 'Lyon', 'it'];
const answers = labels.slice(0, 500).map((l) => Array.from(l, (c) => Array.from({ length: 3 + c }, (_, j) => WORDS[(c * 3 + j) % WORDS.length]).join(' ')));
time('lexical similarity (1,225 ROUGE-L pairs per question)', answers.length, QUESTIONS, (i) => lexicalSimilarity(answers[i]));
