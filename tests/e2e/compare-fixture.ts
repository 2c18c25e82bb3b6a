/**
 * Report documents with a known truth for the Compare and Leaderboard tests, scored by the
 * pipeline (pipeline/score-stage.ts modelMetrics, as `semece score` does): each question's chance of a
 * correct answer p is drawn uniform on [0.05, 0.55] and every signal states p + overconfidence,
 * so the population ECE is exactly the overconfidence (every bin is off by it, in one direction)
 * and the population accuracy is 0.3 for every model.
 */
import { REPORT_VERSION, type ModelReport, type ReportDocument, type ReportQuestion } from '../../src/model/report';
import { modelMetrics } from '../../src/pipeline/score-stage';
import { reportToJson } from '../../src/formats/report-export';

/** mulberry32: a small seeded stream, so the files are the same on every run. */
function stream(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function questions(count: number, overconfidence: number, seed: number): ReportQuestion[] {
  const rand = stream(seed);
  return Array.from({ length: count }, (_, i): ReportQuestion => {
    const p = 0.05 + 0.5 * rand();
    const correct = rand() < p ? 1 : 0;
    const c = p + overconfidence;
    return {
      id: `q${i}`, question: `Synthetic question ${i}?`, gold: 'yes', n: 10,
      sem1: c, sem2: c, verbalized: c, correct, grade: correct ? 'CORRECT' : 'INCORRECT',
      margin: 0.5, stdMargin: 0.5, regime: 'jensen', entropy: 0.5, nClasses: 2, modalLabel: 'yes',
    };
  });
}

/** One model's report over `count` questions (ids q0…), its signals overconfident by `overconfidence`. */
export function syntheticReport(model: string, overconfidence: number, seed: number, count = 300): ReportDocument {
  const qs = questions(count, overconfidence, seed);
  const m: ModelReport = { model, metrics: modelMetrics(qs, { excluded: 0 }, { B: 200, bootstrapSeed: 7 }), questions: qs, excludedQuestions: [] };
  return {
    format: 'semece-report',
    version: REPORT_VERSION,
    title: `Synthetic ${model}`,
    createdAt: '2026-12-04T12:00:00.000Z',
    dataset: { name: 'synthetic', questions: count },
    settings: {
      samples: 10, temperature: 1, topP: 1,
      clustering: { method: 'exact' }, grading: { method: 'alias' },
      sem2: { R: 10, seed: 0, selection: 'half' }, bins: 10, bootstrap: { B: 200, seed: 7 },
    },
    models: [m],
  };
}

/** A report as a file for setInputFiles. */
export function reportFile(name: string, doc: ReportDocument) {
  return { name, mimeType: 'application/json', buffer: Buffer.from(reportToJson(doc)) };
}
