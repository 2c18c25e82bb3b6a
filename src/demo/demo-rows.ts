/**
 * Demo samples: a simulated model answering the demo questions. Each reply's class is drawn from
 * the question's π (questions.ts), worded with one of the class's surface forms, and ends with
 * the spec's "Answer:" and "Confidence:" lines. The output is what the authors' pipeline writes
 * after clustering and grading, so the demo report goes through the same reader and scorer as a
 * user's files. Classes are listed in order of first appearance, as an LLM judge lists them.
 *
 * This is demo data: the model names say "simulated", and no real model produced any of it.
 */
import type { ClusteredRow, GradedRow } from '../model/rows';
import { classDistribution, type DemoQuestion } from './questions';

/** A simulated model: how sure its answers are and how it states confidence. */
export interface DemoModel {
  name: string;
  /** Exponent on the answer weights: 1 as written, < 1 flatter (a less consistent model). */
  sharpness: number;
  samples: number;
  /** Stated confidence ≈ floor + slope · c* (percent), plus noise: overconfident when floor is high. */
  statedFloor: number;
  statedSlope: number;
  /** Share of replies with no parsable confidence line (scored as 1.0 by the spec). */
  missingConfidence: number;
  /**
   * Questions (by number) where this model favours the runner-up. Chosen so that, as for a
   * calibrated model, questions with a weak favourite are often answered wrongly.
   */
  swapTop: number[];
}

export const DEMO_MODELS: DemoModel[] = [
  { name: 'demo-model-a (simulated)', sharpness: 1, samples: 50, statedFloor: 55, statedSlope: 45, missingConfidence: 0.02, swapTop: [22, 27, 38, 41, 44, 45, 50, 52] },
  { name: 'demo-model-b (simulated)', sharpness: 0.55, samples: 50, statedFloor: 70, statedSlope: 30, missingConfidence: 0.05, swapTop: [15, 21, 22, 23, 32, 36, 38, 40, 41, 42, 44, 45, 48, 51, 52, 59] },
];

/** A uniform draw in [0, 1); the script passes numpy-compatible defaultRng(seed).random. */
export type Uniform = () => number;

function drawIndex(cumulative: number[], u: number): number {
  for (let k = 0; k < cumulative.length; k++) if (u < cumulative[k]) return k;
  return cumulative.length - 1;
}

function statedPercent(model: DemoModel, cStar: number, random: Uniform): number {
  const noise = (random() - 0.5) * 20;
  const raw = model.statedFloor + model.statedSlope * cStar + noise;
  // Models like round numbers: state to the nearest 5%.
  return Math.max(0, Math.min(100, Math.round(raw / 5) * 5));
}

export interface DemoRows {
  clustered: ClusteredRow[];
  graded: GradedRow[];
}

/** One model's clustered and graded rows for every demo question. */
export function simulateDemoRows(questions: DemoQuestion[], model: DemoModel, random: Uniform): DemoRows {
  const clustered: ClusteredRow[] = [];
  const graded: GradedRow[] = [];
  for (const question of questions) {
    const pi = classDistribution(question, { sharpness: model.sharpness, swapTop: model.swapTop.includes(Number(question.id.slice(5))) });
    const cStar = Math.max(...pi);
    const cumulative: number[] = [];
    pi.reduce((s, p, k) => (cumulative[k] = s + p), 0);

    const classOf: number[] = [];
    const results: string[] = [];
    const extracted: string[] = [];
    const stated: (number | null)[] = [];
    for (let i = 0; i < model.samples; i++) {
      const k = drawIndex(cumulative, random());
      const variants = question.plausible[k].variants;
      const answer = variants[Math.floor(random() * variants.length)];
      const missing = random() < model.missingConfidence;
      const percent = statedPercent(model, cStar, random);
      classOf.push(k);
      extracted.push(answer);
      stated.push(missing ? null : percent / 100);
      results.push(missing ? `I believe it is ${answer}.\nAnswer: ${answer}` : `Answer: ${answer}\nConfidence: ${percent}%`);
    }

    // List classes in order of first appearance, as the judge does, and renumber to that order.
    const listed: number[] = [];
    for (const k of classOf) if (!listed.includes(k)) listed.push(k);
    const assignments = classOf.map((k) => listed.indexOf(k));
    const sizes = listed.map((_, j) => assignments.filter((a) => a === j).length);
    const modal = sizes.indexOf(Math.max(...sizes));
    const modalClass = question.plausible[listed[modal]];
    const labels = listed.map((k) => question.plausible[k].label);

    clustered.push({
      id: question.id,
      question: question.question,
      gold_answer: question.answer,
      gold_answer_aliases: question.aliases,
      model: model.name,
      n_samples: model.samples,
      results,
      answer_extracted: extracted,
      confidence_verbalized: stated,
      n_clusters: listed.length,
      cluster_labels: labels,
      cluster_assignments: assignments,
      cluster_sizes: sizes,
      modal_cluster: modal,
      modal_cluster_label: labels[modal],
    });
    graded.push({
      id: question.id,
      model: model.name,
      question: question.question,
      gold_answer: question.answer,
      modal_cluster_label: labels[modal],
      grade: modalClass.correct ? 'CORRECT' : 'INCORRECT',
      Y: modalClass.correct ? 1 : 0,
    });
  }
  return { clustered, graded };
}

/** Rows as JSONL text, one row per line, the authors' file layout. */
export function toJsonl(rows: object[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
}
