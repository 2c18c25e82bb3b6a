/**
 * The New run wizard's state: one small class with $state fields, shared by the step
 * components. `toSpec()` turns it into a RunSpec (no keys); `draftSpec()` is the same settings
 * before the run can start (a RunSpec without its dataset, what the saved draft keeps) and
 * `applySpec()` puts such a spec back; `problems()` says, in words, what still stops each step
 * from going on.
 */
import { demoDataset } from '../../demo/questions';
import type { ColumnMapping, DatasetPreview, ReadDataset, SkippedRow } from '../../formats/datasets';
import type { DatasetWorkerApi } from '../../workers/dataset-api';
import { DEFAULT_GENERATION_PROMPT, validatePromptTemplate } from '../../pipeline/prompts';
import type { ClusteringSpec, GradingSpec, McJobSpec, ModelSpec, RunSpec, SamplingSpec, ScoringSpec } from '../../model/run-spec';
import { defaultScoring, scoringProblems } from './scoring-choice';
import { mcProblems, hasMcOptions } from './multiple-choice-draft';
import { drawSubset } from '../../formats/datasets/subset';
import { HubDraft } from './hub-draft.svelte';
import { clusteringDraftOf, clusteringModels, clusteringProblems, clusteringSpecOf, initialClusteringDrafts, type ClusteringDrafts } from './clustering-choice';
import { modelDraft, modelDraftOf, modelProblems, toModelSpec, type ModelDraft } from './model-draft';
import type { Dataset, Result, StageError } from '../../model/rows';
import { errorText } from '../error-text';
import { adaptiveProblems, adaptiveSettingsOf, defaultAdaptive } from './adaptive-choice';
import type { AdaptiveSettings } from '../../model/run-spec';

export const STEP_NAMES = ['Dataset', 'Models', 'Settings', 'Review and start'] as const;

/** Characters of a dataset file kept in session storage with the draft (its quota is about 5 MB per origin). */
export const MAX_KEPT_FILE_CHARS = 1_500_000;


/** A RunSpec's settings without its dataset, any of them missing: what a saved draft holds. */
export type DraftSpec = Partial<Omit<RunSpec, 'dataset'>>;

export class RunDraft {
  step = $state(0);
  title = $state('');

  datasetChoice = $state<'demo' | 'file' | 'hub'>('demo');
  /** The hub choice; its worker client is loaded only when a hub dataset is (keeps the first page light). */
  hub: HubDraft;
  /** Ask only some of a file's or hub dataset's questions: N drawn with a seed (recorded in the run). */
  subset = $state({ on: false, n: 100, seed: 0, stratify: true });
  /** The chosen file; its text only when small enough to keep across a reload (MAX_KEPT_FILE_CHARS). */
  file = $state.raw<{ name: string; text?: string } | null>(null);
  preview = $state.raw<DatasetPreview | null>(null);
  mapping = $state<ColumnMapping>({});
  fileDataset = $state.raw<Dataset | null>(null);
  fileError = $state.raw<StageError | null>(null);
  skipped = $state.raw<SkippedRow[]>([]);
  /** Demo questions to use (the whole set is 60). */
  demoCount = $state(20);

  models = $state<ModelDraft[]>([modelDraft()]);

  sampling = $state<SamplingSpec>({ n: 50, temperature: 1, topP: 1, maxTokens: 512, prompt: DEFAULT_GENERATION_PROMPT, concurrency: 8 });
  /**
   * Adaptive sampling (issue 27): on, n is the maximum per question and the rule's settings apply;
   * the settings are kept while it is off, so switching back finds them.
   */
  adaptive = $state<{ on: boolean; settings: AdaptiveSettings }>({ on: false, settings: defaultAdaptive() });
  clusteringMethod = $state<ClusteringSpec['method']>('exact');
  /** Each clustering method's settings (ui/run/clustering-choice.ts), kept so switching back finds them. */
  clusterings = $state<ClusteringDrafts>(initialClusteringDrafts());
  gradingMethod = $state<GradingSpec['method']>('alias');
  gradingJudge = $state<ModelDraft>(modelDraft());
  /** Open answers (Sem-ECE) or, for a dataset with options, multiple choice (ConfidenceBench). */
  mode = $state<'open' | 'mc'>('open');
  mc = $state<McJobSpec>({ runs: 3, seed: 0, samples: 0, logprobs: true });
  /** How the report is scored (the "Advanced: scoring" fold-out); the paper's settings unless changed. */
  scoring = $state<ScoringSpec>(defaultScoring());

  /** Every question has 2 to 10 options: the multiple-choice mode can be offered. */
  get hasOptions(): boolean {
    return hasMcOptions(this.dataset);
  }

  get isMc(): boolean {
    return this.mode === 'mc' && this.hasOptions;
  }

  /** Files are decoded and parsed in the dataset worker, so a large one never blocks the page. */
  fileReading = $state(false);
  private readonly datasets: () => Promise<DatasetWorkerApi>;

  constructor(datasets: () => Promise<DatasetWorkerApi> = async () => (await import('../../workers/dataset-client')).datasetClient) {
    this.datasets = datasets;
    this.hub = new HubDraft(datasets);
  }

  /** The questions of the chosen source, before any subset is drawn. */
  get sourceDataset(): Dataset | null {
    if (this.datasetChoice === 'demo') {
      return { ...demoDataset, questions: demoDataset.questions.slice(0, this.demoCount).map(({ id, question, answer, aliases }) => ({ id, question, answer, ...(aliases ? { aliases } : {}) })) };
    }
    if (this.datasetChoice === 'hub') return this.hub.current ? this.hub.dataset : null;
    return this.fileDataset;
  }

  /** The questions the run asks: the source's, or the subset drawn from them. */
  dataset = $derived.by((): Dataset | null => {
    const source = this.sourceDataset;
    if (!source || this.datasetChoice === 'demo' || !this.subset.on || subsetProblems(this.subset).length > 0) return source;
    return drawSubset(source, this.subset);
  });

  /**
   * Reads a chosen file (its bytes, or text kept from before a reload) in the dataset worker: its
   * own layout when recognised, else asks for a column mapping (`mapping` reads it with one).
   */
  async loadFile(name: string, content: Uint8Array | string, mapping?: ColumnMapping): Promise<void> {
    this.fileReading = true;
    try {
      const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
      const result = await (await this.datasets()).readFile(bytes, name, { mapping, keepTextUpTo: MAX_KEPT_FILE_CHARS });
      if (!result.ok) {
        this.file = null;
        this.preview = null;
        this.take(result);
        return;
      }
      this.file = { name, ...(result.value.text !== undefined ? { text: result.value.text } : {}) };
      this.preview = result.value.preview;
      this.mapping = { ...(mapping ?? result.value.preview.suggestedMapping) };
      this.take(result.value.read);
    } catch (e) {
      this.file = null;
      this.preview = null;
      this.take({ ok: false, error: { kind: 'dataset', message: errorText(e), where: name } });
    } finally {
      this.fileReading = false;
    }
  }

  /** Reads the chosen file again with the column mapping as the user set it. */
  async readWithMapping(): Promise<void> {
    if (!this.file) return;
    this.take(await (await this.datasets()).remapFile($state.snapshot(this.mapping)));
  }

  private take(result: Result<ReadDataset>): void {
    if (result.ok) {
      this.fileDataset = result.value.dataset;
      this.skipped = result.value.skipped;
      this.fileError = null;
      this.mapping = { ...result.value.mapping };
    } else {
      this.fileDataset = null;
      this.skipped = [];
      this.fileError = result.error;
    }
  }

  /** Models that take part in the run: the sampled ones and any judges. */
  get allModels(): ModelDraft[] {
    if (this.isMc) return [...this.models];
    return [
      ...this.models,
      ...clusteringModels(this.clusteringMethod, this.clusterings),
      ...(this.gradingMethod === 'judge' ? [this.gradingJudge] : []),
    ];
  }

  /** The settings of one clustering method as a spec (the draft keeps each method's, so switching back finds them). */
  clusteringFor(method: ClusteringSpec['method'], concurrency?: number): ClusteringSpec {
    return clusteringSpecOf(method, this.clusterings, concurrency);
  }

  /** Takes a clustering spec's settings and makes it the run's method. */
  applyClustering(c: ClusteringSpec): void {
    this.rememberClustering(c);
    this.clusteringMethod = c.method;
  }

  /** Takes a clustering spec's settings, the run's method left as it is (found when switching to it). */
  rememberClustering(c: ClusteringSpec): void {
    (this.clusterings as Record<ClusteringSpec['method'], object>)[c.method] = clusteringDraftOf(c, this.clusterings);
  }

  gradingFor(method: GradingSpec['method'], concurrency?: number): GradingSpec {
    return method === 'judge' ? { method: 'judge', judge: toModelSpec(this.gradingJudge, concurrency) } : { method: 'alias' };
  }

  /** Takes a grading spec's settings and makes it the run's method. */
  applyGrading(g: GradingSpec): void {
    this.rememberGrading(g);
    this.gradingMethod = g.method;
  }

  /** Takes a grading spec's settings, the run's method left as it is. */
  rememberGrading(g: GradingSpec): void {
    if (g.method === 'judge') this.gradingJudge = modelDraftOf(g.judge);
  }

  /**
   * The run's settings as they stand, in the RunSpec's shape but without the dataset (its source
   * is the wizard's own choice) and with the multiple-choice settings whichever the mode.
   */
  draftSpec(): Required<DraftSpec> {
    return {
      title: this.title,
      models: this.models.map((m) => toModelSpec(m)),
      // Adaptive sampling is part of the sampling settings: present only when chosen.
      sampling: { ...$state.snapshot(this.sampling), ...(this.adaptive.on ? { adaptive: $state.snapshot(this.adaptive.settings) } : {}) },
      clustering: this.clusteringFor(this.clusteringMethod),
      grading: this.gradingFor(this.gradingMethod),
      scoring: $state.snapshot(this.scoring),
      mc: $state.snapshot(this.mc),
    };
  }

  /** Puts the fields a (partial) spec has into the draft; the others stay as they are. */
  applySpec(spec: DraftSpec): void {
    if (spec.title !== undefined) this.title = spec.title;
    if (spec.models) this.models = spec.models.map(modelDraftOf);
    if (spec.sampling) {
      const { n, temperature, topP, maxTokens, prompt, concurrency, adaptive, logprobs, pTrue } = spec.sampling;
      this.sampling = { n, temperature, maxTokens, prompt, concurrency, ...(topP !== undefined ? { topP } : {}), ...(logprobs ? { logprobs } : {}), ...(pTrue ? { pTrue: { ...pTrue } } : {}) };
      // A spec's sampling without the rule is fixed n; the rule's settings stay for switching back.
      this.adaptive = adaptive ? { on: true, settings: adaptiveSettingsOf(adaptive) } : { on: false, settings: this.adaptive.settings };
    }
    if (spec.clustering) this.applyClustering(spec.clustering);
    if (spec.grading) this.applyGrading(spec.grading);
    if (spec.scoring) this.scoring = { sem2: { ...spec.scoring.sem2 }, bins: spec.scoring.bins, bootstrap: { ...spec.scoring.bootstrap } };
    if (spec.mc) {
      const { runs, seed, samples, logprobs } = spec.mc;
      this.mc = { runs, seed, samples, logprobs };
    }
  }

  toSpec(): RunSpec {
    const dataset = this.dataset!;
    const c = this.sampling.concurrency;
    const spec = this.draftSpec();
    const models = this.models.map((m) => toModelSpec(m, c));
    // A multiple-choice run samples its Sem-ECE part at a fixed n (mc.samples): no rule.
    const { adaptive, ...fixed } = spec.sampling;
    return {
      title: spec.title.trim() || `${dataset.name} · ${models.map((m) => m.model).join(', ')}`,
      dataset: $state.snapshot(dataset) as Dataset,
      models,
      sampling: this.isMc || !adaptive ? fixed : { ...fixed, adaptive },
      clustering: this.clusteringFor(this.clusteringMethod, c),
      grading: this.gradingFor(this.gradingMethod, c),
      scoring: spec.scoring,
      ...(this.isMc ? { mc: spec.mc } : {}),
    };
  }

  problems(step: number): string[] {
    const out: string[] = [];
    if (step === 0) {
      if (this.datasetChoice === 'file' && !this.file) out.push('Choose a dataset file, or use the demo questions.');
      else if (this.datasetChoice === 'hub' && !this.hub.current) out.push(this.hub.loadedFor ? 'Load the hub dataset again: the form has changed since it was loaded.' : 'Load the hub dataset first.');
      else if (!this.dataset) out.push(this.datasetChoice === 'hub' ? 'Fix the problem with the hub dataset first.' : this.fileError ? 'Fix the problem with the file first.' : 'The file gave no questions.');
      else if (this.dataset.questions.length === 0) out.push('There are no questions to ask: choose at least one.');
      if (this.datasetChoice !== 'demo' && this.subset.on) out.push(...subsetProblems(this.subset));
    }
    if (step === 1) {
      if (this.models.length === 0) out.push('Add at least one model.');
      for (const [i, m] of this.models.entries()) out.push(...modelProblems(m, `Model ${i + 1}`));
    }
    if (step === 2 && this.isMc) out.push(...mcProblems(this.mc, this.sampling));
    else if (step === 2) {
      const s = this.sampling;
      if (!Number.isInteger(s.n) || s.n < 2 || s.n > 1000) out.push(`${this.adaptive.on ? 'The most samples per question' : 'Samples per question'} must be a whole number from 2 to 1000.`);
      else if (this.adaptive.on) out.push(...adaptiveProblems(this.adaptive.settings, s.n));
      if (!(s.temperature >= 0 && s.temperature <= 2)) out.push('Temperature must be between 0 and 2.');
      if (s.topP !== undefined && !(s.topP > 0 && s.topP <= 1)) out.push('top_p must be above 0 and at most 1.');
      if (!Number.isInteger(s.maxTokens) || s.maxTokens < 16) out.push('Max tokens must be a whole number of at least 16.');
      if (!Number.isInteger(s.concurrency) || s.concurrency < 1 || s.concurrency > 64) out.push('Concurrency must be a whole number from 1 to 64.');
      const prompt = validatePromptTemplate(s.prompt);
      if (!prompt.ok) out.push(prompt.error.message);
      out.push(...clusteringProblems(this.clusteringMethod, this.clusterings));
      if (this.gradingMethod === 'judge') out.push(...modelProblems(this.gradingJudge, 'The grading judge', { judge: true }));
      if (this.gradingMethod === 'alias' && this.dataset && this.dataset.questions.every((q) => !q.answer)) out.push('Alias grading needs reference answers.');
    }
    if (step === 2) out.push(...scoringProblems(this.scoring));
    return out;
  }
}

function subsetProblems(s: { n: number; seed: number }): string[] {
  const out: string[] = [];
  if (!Number.isInteger(s.n) || s.n < 1) out.push('The number of questions to draw must be a whole number of at least 1.');
  if (!Number.isInteger(s.seed) || s.seed < 0 || s.seed > 2 ** 32 - 1) out.push('The seed must be a whole number from 0 to 4294967295.');
  return out;
}
