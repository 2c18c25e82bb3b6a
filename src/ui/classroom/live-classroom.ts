/**
 * The classroom's live mode: a few built-in questions sampled from a language model running in
 * this browser (the 'in-browser' provider, no key, no server), clustered in the page
 * (entailment or exact match) and graded against their reference answers, so a class sees the
 * winner's curse on a real model's answers rather than on simulated ones.
 *
 * It is an ordinary run (the run worker samples, clusters, grades, scores and caches it like any
 * other, and it is listed with the others); this module only chooses its settings and reads its
 * report back into the classroom's terms. Nothing here knows the answer distribution π, so there
 * is no c* to compare with: what a class can see is Sem1 ≥ Sem2 question by question, and the two
 * beside the share of modal answers that are right.
 */
import { DEMO_QUESTIONS } from '../../demo/questions';
import { DEFAULT_GENERATION_PROMPT } from '../../pipeline/prompts';
import { SCORING_DEFAULTS, type RunSpec, type ScoringSpec } from '../../model/run-spec';
import type { ReportDocument, ReportQuestion } from '../../model/report';
import { IN_BROWSER_PRESET } from '../../providers/in-browser/models';
import { isShippedNliModel } from '../../clustering/nli-models';
import { methodWithOwnModel } from '../../model/clustering-methods';
import { pairwiseMean } from '../../core/pairwise';
import { splitSteps, type SplitStep } from './classroom-steps';

/**
 * The built-in questions asked, in this order: capitals and counts a small model often gets
 * right (the tiny test model knows the first four), then questions with a close runner-up (two
 * capitals, two rivers, two planets), where a model's answers split and the curse shows.
 */
export const LIVE_QUESTION_IDS = ['demo-01', 'demo-04', 'demo-21', 'demo-05', 'demo-33', 'demo-44', 'demo-56', 'demo-57', 'demo-59', 'demo-48', 'demo-45', 'demo-49'] as const;

/** The clustering by an NLI model the page runs (the methods table's method with an NLI model of its own). */
export const LIVE_NLI_METHOD = methodWithOwnModel('nli');

export interface LiveSettings {
  /** A generation model id (providers/in-browser/models.ts) or any hub id with ONNX weights. */
  model: string;
  clustering: typeof LIVE_NLI_METHOD | 'exact';
  /** The NLI model of entailment clustering. */
  nliModel: string;
  /** Samples per question. */
  n: number;
  /** How many of LIVE_QUESTION_IDS to ask. */
  questions: number;
}

export const LIVE_LIMITS = { n: { min: 4, max: 50 }, questions: { min: 2, max: LIVE_QUESTION_IDS.length } } as const;

export const LIVE_DEFAULTS: LiveSettings = {
  model: 'HuggingFaceTB/SmolLM2-360M-Instruct',
  clustering: LIVE_NLI_METHOD,
  nliModel: 'Xenova/nli-deberta-v3-xsmall',
  n: 20,
  questions: 8,
};

/** The settings' problems, in words; empty when a run can start. */
export function liveSettingsProblems(s: LiveSettings): string[] {
  const problems: string[] = [];
  if (!s.model.trim()) problems.push('Choose a model to sample.');
  if (s.clustering === LIVE_NLI_METHOD && !s.nliModel.trim()) problems.push('Choose an NLI model for entailment clustering.');
  const whole = (v: number, { min, max }: { min: number; max: number }, what: string) => {
    if (!Number.isInteger(v) || v < min || v > max) problems.push(`${what} must be a whole number from ${min} to ${max}.`);
  };
  whole(s.n, LIVE_LIMITS.n, 'Samples per question');
  whole(s.questions, LIVE_LIMITS.questions, 'Questions');
  return problems;
}

/** The run a live session starts: the in-browser model, clustering in the page, alias grading, the paper's scoring. */
export function liveRunSpec(s: LiveSettings): RunSpec {
  const byId = new Map(DEMO_QUESTIONS.map((q) => [q.id, q]));
  const questions = LIVE_QUESTION_IDS.slice(0, s.questions).map((id) => {
    const { question, answer, aliases, category } = byId.get(id)!;
    return { id, question, answer, ...(aliases?.length ? { aliases } : {}), ...(category ? { category } : {}) };
  });
  const model = s.model.trim();
  return {
    title: `Live classroom — ${model}`,
    dataset: { name: 'Live classroom questions', source: 'demo', questions },
    models: [{ kind: 'in-browser', preset: IN_BROWSER_PRESET, baseUrl: '', model, concurrency: 1 }],
    sampling: { n: s.n, temperature: 1, maxTokens: 64, prompt: DEFAULT_GENERATION_PROMPT, concurrency: 1 },
    clustering:
      s.clustering === 'exact'
        ? { method: 'exact' }
        : { method: LIVE_NLI_METHOD, model: s.nliModel.trim(), ...(isShippedNliModel(s.nliModel) ? {} : { allowRemote: true }) },
    grading: { method: 'alias' },
    scoring: SCORING_DEFAULTS,
  };
}

export interface LiveQuestion {
  id: string;
  question: string;
  gold: string;
  /** Each sample's answer and class, in sampling order. */
  samples: { answer: string; cls: number }[];
  classes: { label: string; size: number }[];
  modalLabel: string;
  correct: boolean;
  sem1: number;
  sem2: number;
  /** Sem2's splits, recomputed from the samples with the report's own settings (equal to `sem2`). */
  steps: SplitStep[];
}

/** The Sem2 options a report was scored with. */
function sem2OptionsOf(scoring: ScoringSpec) {
  const { R, seed, selection } = scoring.sem2;
  return { R, seed, selectionSize: selection === 'half' ? undefined : () => selection };
}

/** One report question in the classroom's terms, or null when the report kept no samples for it. */
export function liveQuestion(q: ReportQuestion, scoring: ScoringSpec): LiveQuestion | null {
  if (!q.samples?.length || !q.classes?.length) return null;
  const assignments = q.samples.map((s) => s.cls);
  const { steps } = splitSteps(assignments, q.classes.length, sem2OptionsOf(scoring));
  return {
    id: q.id,
    question: q.question,
    gold: q.gold,
    samples: q.samples.map((s) => ({ answer: s.answer, cls: s.cls })),
    classes: q.classes.map((c) => ({ label: c.label, size: c.size })),
    modalLabel: q.modalLabel,
    correct: q.correct === 1,
    sem1: q.sem1,
    sem2: q.sem2,
    steps,
  };
}

export interface LiveSummary {
  questions: number;
  meanSem1: number;
  meanSem2: number;
  /** Share of modal answers graded correct. */
  accuracy: number;
  /** Questions where Sem1 is above Sem2, equal, below. */
  above: number;
  equal: number;
  below: number;
}

/** The report's first model's questions, as the live view shows them, and their summary. */
export function liveResult(doc: ReportDocument): { questions: LiveQuestion[]; summary: LiveSummary } | null {
  const model = doc.models[0];
  if (!model) return null;
  const scoring: ScoringSpec = { sem2: doc.settings.sem2, bins: doc.settings.bins, bootstrap: doc.settings.bootstrap };
  const questions = model.questions.map((q) => liveQuestion(q, scoring)).filter((q): q is LiveQuestion => q !== null);
  if (questions.length === 0) return null;
  const mean = (f: (q: LiveQuestion) => number) => pairwiseMean(questions.map(f));
  return {
    questions,
    summary: {
      questions: questions.length,
      meanSem1: mean((q) => q.sem1),
      meanSem2: mean((q) => q.sem2),
      accuracy: mean((q) => (q.correct ? 1 : 0)),
      above: questions.filter((q) => q.sem1 > q.sem2).length,
      equal: questions.filter((q) => q.sem1 === q.sem2).length,
      below: questions.filter((q) => q.sem1 < q.sem2).length,
    },
  };
}

/** What the summary says, in words, for the caption under the live results. */
export function liveCaption(s: LiveSummary): string {
  const p = (v: number) => `${(v * 100).toFixed(1)}%`;
  const gap = s.meanSem1 - s.meanSem2;
  const lead = `Over ${s.questions} questions, Sem1 averages ${p(s.meanSem1)} and Sem2 ${p(s.meanSem2)}; ${p(s.accuracy)} of the modal answers are right.`;
  const curse =
    gap > 0
      ? ` Sem1 is higher than Sem2 on ${s.above} of ${s.questions} questions and lower on ${s.below}: picking the winner and scoring it on the same samples counts the winner's luck, which Sem2's held-out samples do not.`
      : ` Here Sem1 is not above Sem2 on average: with answers this concentrated there is little luck to count (the curse shows on questions whose answers split).`;
  return lead + curse;
}
