/**
 * A small, valid report document built by hand for codec and schema tests: two models, a few
 * questions with samples and classes, NaN where the core leaves statistics undefined.
 */
import { REPORT_VERSION, type ModelReport, type ReportDocument, type ReportQuestion } from '../../../src/model/report';
import type { ReliabilityBin, SignalMetrics } from '../../../src/core/types';

function bins(): ReliabilityBin[] {
  return Array.from({ length: 10 }, (_, i) => ({
    lo: i * 0.1,
    hi: (i + 1) * 0.1,
    count: i % 3 === 0 ? 0 : i,
    meanConfidence: i % 3 === 0 ? Number.NaN : i * 0.1 + 0.05,
    accuracy: i % 3 === 0 ? Number.NaN : 0.5,
  }));
}

function signal(ece: number): SignalMetrics {
  return {
    ece,
    eceEqualMass: ece + 0.01,
    mce: 0.4,
    smoothEce: ece - 0.01,
    brier: { score: 0.2, reliability: 0.05, resolution: 0.1, uncertainty: 0.25 },
    auroc: Number.NaN,
    aurc: 0.3,
    meanConfidence: 0.7,
    bins: bins(),
    binsEqualMass: bins(),
  };
}

export function question(i: number, withSamples: boolean): ReportQuestion {
  const answers = ['Paris', 'Lyon', 'Marseille'];
  const samples = withSamples
    ? Array.from({ length: 6 }, (_, k) => ({
        raw: `Reasoning ${k}…\nAnswer: ${answers[k % 3]}\nConfidence: ${60 + k}%`,
        answer: answers[k % 3],
        confidence: k === 5 ? null : (60 + k) / 100,
        cls: k % 3,
      }))
    : undefined;
  return {
    id: `q${i}`,
    question: `Which city is number ${i}? <b>bold</b>`,
    gold: 'Paris',
    n: 6,
    sem1: 0.5 + (i % 5) / 10,
    sem2: 0.4 + (i % 3) / 10,
    verbalized: 0.123456789 + i / 1000,
    signals: { stated: 0.7 },
    correct: (i % 2) as 0 | 1,
    grade: i % 2 ? 'CORRECT' : 'INCORRECT',
    margin: 1 / 6,
    stdMargin: Math.sqrt(6) / 6,
    regime: 'jensen',
    entropy: Math.log(3),
    nClasses: 3,
    modalLabel: 'Paris',
    classes: withSamples ? answers.map((label) => ({ label, size: 2 })) : undefined,
    samples,
  };
}

function model(name: string, questions: number, withSamples: boolean): ModelReport {
  return {
    model: name,
    provider: 'openai',
    metrics: {
      questions,
      excluded: 1,
      accuracy: 0.5,
      signals: { sem1: signal(0.21), sem2: signal(0.11), verbalized: signal(0.3) },
      bootstrap: {
        d_conf: [0.1, 0.05, 0.15],
        d_ece: [0.1, 0.02, 0.2],
        d_ece_lo: [Number.NaN, Number.NaN, Number.NaN],
        n_lo: Math.min(3, questions),
        B: 1000,
        seed: 7,
      },
      eceIntervals: { sem1: [0.21, 0.15, 0.3], sem2: [0.11, 0.05, 0.2] },
      byRegime: {
        jensen: { count: questions, ece: { sem1: 0.2, sem2: 0.1 } },
        'low-margin': { count: 0, ece: { sem1: Number.NaN, sem2: Number.NaN } },
        'large-margin': { count: 0, ece: {} },
      },
      meanClasses: 3,
    },
    questions: Array.from({ length: questions }, (_, i) => question(i, withSamples)),
    excludedQuestions: [{ id: 'bad1', reason: 'clustering failed' }],
  };
}

export function sampleReport(opts: { questions?: number; samples?: boolean } = {}): ReportDocument {
  const n = opts.questions ?? 4;
  const withSamples = opts.samples ?? true;
  return {
    format: 'semece-report',
    version: REPORT_VERSION,
    title: 'Fixture report <script>alert(1)</script>',
    createdAt: '2026-11-29T12:00:00.000Z',
    dataset: { name: 'fixture', questions: n + 1, source: 'test' },
    settings: {
      samples: 6,
      temperature: 1,
      topP: 1,
      clustering: { method: 'exact' },
      grading: { method: 'alias' },
      sem2: { R: 10, seed: 0, selection: 'half' },
      bins: 10,
      bootstrap: { B: 1000, seed: 7 },
    },
    models: [model('model-a', n, withSamples), model('model-b', n, withSamples)],
  };
}
