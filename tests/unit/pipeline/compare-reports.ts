/**
 * Report documents for the comparison tests, built from confidences and outcomes: the questions
 * carry what the comparison reads, and the metrics are the core's (signalMetrics, eceInference)
 * on them, as the score stage stores them.
 */
import { accuracy, signalMetrics } from '../../../src/core/calibration';
import { eceInference } from '../../../src/core/ece-inference';
import { REPORT_VERSION, type ModelReport, type ReportDocument, type ReportQuestion } from '../../../src/model/report';
import { SCORING_DEFAULTS } from '../../../src/model/run-spec';
import { defaultRng } from '../../../src/core/rng';

export interface Rows {
  conf: number[];
  y: (0 | 1)[];
  ids?: string[];
  texts?: string[];
}

/** N questions with confidences on tenths and outcomes drawn with P(correct) = conf − offset. */
export function drawRows(N: number, offset: number, seed: number): Rows {
  const rng = defaultRng(seed);
  const conf: number[] = [];
  const y: (0 | 1)[] = [];
  for (let i = 0; i < N; i++) {
    const c = Math.round((0.3 + 0.7 * rng.random()) * 10) / 10;
    conf.push(c);
    y.push(rng.random() < c - offset ? 1 : 0);
  }
  return { conf, y };
}

export function modelOf(name: string, rows: Rows): ModelReport {
  const questions: ReportQuestion[] = rows.conf.map((c, i) => ({
    id: rows.ids?.[i] ?? `q${i}`,
    question: rows.texts?.[i] ?? `Question ${i}?`,
    gold: 'x',
    n: 10,
    sem1: c,
    sem2: c,
    verbalized: c,
    correct: rows.y[i],
    grade: rows.y[i] ? 'CORRECT' : 'INCORRECT',
    margin: 0.5,
    stdMargin: 1,
    regime: 'large-margin',
    entropy: 0.5,
    nClasses: 2,
    modalLabel: 'x',
  }) as ReportQuestion);
  const m = signalMetrics(rows.conf, rows.y, { smooth: false });
  const inf = eceInference(rows.conf, rows.y, { draws: 300 });
  return {
    model: name,
    questions,
    excludedQuestions: [],
    metrics: {
      questions: questions.length,
      excluded: 0,
      accuracy: accuracy(rows.y),
      signals: { sem1: m, sem2: m, verbalized: m },
      eceInference: { sem1: { interval: inf.interval, p: inf.p }, sem2: { interval: inf.interval, p: inf.p }, verbalized: { interval: inf.interval, p: inf.p } },
    } as unknown as ModelReport['metrics'],
  };
}

export function documentOf(models: ModelReport[], clustering: ReportDocument['settings']['clustering']['method'] = 'exact'): ReportDocument {
  return {
    format: 'semece-report',
    version: REPORT_VERSION,
    title: 't',
    createdAt: new Date(0).toISOString(),
    dataset: { name: 'd', questions: models[0].questions.length },
    settings: { ...SCORING_DEFAULTS, samples: 10, clustering: { method: clustering }, grading: { method: 'alias' } },
    models,
  };
}
