/**
 * A full report document from a multiple-choice run: the stated-probability baseline section, and,
 * when Sem-ECE sampling was run on the same questions, the Sem-ECE rows (the chosen option letter is
 * the class) with every signal scored. Without sampling the model has no Sem-ECE rows: its metrics
 * are those of zero questions (undefined, null in JSON) and the report view shows the baseline alone.
 */
import type { ReportDocument, ReportSettings } from '../model/report';
import { buildReport } from '../pipeline/score-documents';
import { modelMetrics, scoringUsed, type ScoreOptions } from '../pipeline/score-stage';
import type { McRunResult } from './stated-probability-run';
import type { McSemResult } from './sem-ece-run';
import { mcBaselineSection } from './report-section';
import { mcSemEceReport } from './sem-ece-report';

export interface McReportInput {
  model: string;
  provider?: string;
  dataset: { name: string; source?: string };
  baseline: Pick<McRunResult, 'rows' | 'summary'>;
  /** Sem-ECE on the same questions, when sampled. */
  sem?: McSemResult;
  settings: { samples: number; temperature: number; maxTokens: number };
  title?: string;
  createdAt?: string;
  score?: ScoreOptions;
}

export function mcReportDocument(input: McReportInput): ReportDocument {
  const score = input.score ?? {};
  const base = input.sem
    ? mcSemEceReport(input.sem.questions, input.model, score)
    : { model: input.model, metrics: modelMetrics([], { excluded: 0 }, score), questions: [], excludedQuestions: [] };
  const model = { ...base, ...(input.provider ? { provider: input.provider } : {}), baseline: mcBaselineSection(input.baseline) };
  const settings: ReportSettings = {
    samples: input.sem ? input.settings.samples : 0,
    temperature: input.settings.temperature,
    maxTokens: input.settings.maxTokens,
    prompt: 'multiple choice: {"answer": <letter>, "probability": <0-100>}',
    clustering: { method: 'exact', detail: 'the chosen option letter is the class' },
    grading: { method: 'alias', detail: 'the chosen option letter against the gold letter' },
    // The scoring exactly as the scorer used it.
    ...scoringUsed(score),
  };
  return buildReport([model], {
    title: input.title ?? `Multiple choice: ${input.model} on ${input.dataset.name}`,
    dataset: { name: input.dataset.name, source: input.dataset.source, questions: input.baseline.summary.questions },
    settings,
    createdAt: input.createdAt,
  });
}
