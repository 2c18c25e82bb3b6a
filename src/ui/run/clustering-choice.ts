/**
 * The clustering choice of the New run wizard, one row per method of the methods table
 * (model/clustering-methods.ts): the settings the wizard keeps for it, how they become the run
 * spec's clustering and back, what stops them before Start, and the panel that edits them. The
 * options offered (value, label, description) derive from the table itself. TypeScript holds this
 * table to the methods table: a method without a row does not compile, nor one with settings but
 * no panel (a method without settings shares NO_SETTINGS and shows none).
 */
import type { Component } from 'svelte';
import { DEFAULT_SIMILARITY_THRESHOLD } from '../../clustering/agglomerative';
import { DEFAULT_EMBEDDING_MODEL } from '../../clustering/embedding-models';
import { DEFAULT_NLI_MODEL } from '../../clustering/nli-models';
import { CLUSTERING_METHODS, type ClusteringMethodName, type ClusteringMethodTable, type ClusteringSettings, type ClusteringSpec, type MethodWithOwnModel, type OwnModelRole } from '../../model/clustering-methods';
import type { KeyRing } from '../state/keys.svelte';
import { embeddingDownloadText, embeddingProblems } from './embedding-choice';
import { nliDownloadText, nliProblems } from './nli-choice';
import { modelDraft, modelDraftOf, modelProblems, toModelSpec, type ModelDraft } from './model-draft';
import type { ModelDownload } from './model-choice';
import EmbeddingClusteringPanel from './EmbeddingClusteringPanel.svelte';
import JudgeClusteringPanel from './JudgeClusteringPanel.svelte';
import NliClusteringPanel from './NliClusteringPanel.svelte';

/** One clustering method as the wizard offers it. */
export interface ClusteringOption {
  value: string;
  label: string;
  description: string;
}

/** The methods of `table` (the shipped one unless a test gives its own), cheapest first. */
export function clusteringOptions(table: ClusteringMethodTable = CLUSTERING_METHODS): ClusteringOption[] {
  return Object.entries(table)
    .sort(([, a], [, b]) => a.rank - b.rank)
    .map(([value, m]) => ({ value, label: m.label, description: m.description }));
}

/** What a settings panel is given: the method's settings as the wizard keeps them (edited in place), and the key ring for a judge. */
export interface ClusteringPanelProps<S> {
  settings: S;
  ring: KeyRing;
}

type HasSettings<M extends ClusteringMethodName> = keyof (typeof CLUSTERING_METHODS)[M]['settings']['shape'] extends never ? false : true;

/** A method's row; `S`: its settings as the wizard keeps them (a judge as the wizard edits a model). */
export interface ClusteringChoice<M extends ClusteringMethodName, S extends object> {
  /** The settings the wizard starts with; each method keeps its own, so switching back finds them. */
  initial(): S;
  /** The settings as the run spec's clustering records them, besides `method`; `concurrency`: the requests at once of a model it asks. */
  spec(settings: S, concurrency?: number): Omit<ClusteringSettings<M>, 'method'>;
  /** A spec's settings as the wizard keeps them (`current`: what it kept before, for what the spec leaves out). */
  edit(spec: ClusteringSettings<M>, current: S): S;
  /** What stops them before Start, in words. */
  problems(settings: S): string[];
  /** The models it asks besides the sampled ones (their keys and prices are asked for). */
  models?(settings: S): ModelDraft[];
  /** Its settings panel; none for a method without settings. */
  panel: HasSettings<M> extends true ? Component<ClusteringPanelProps<S>> : null;
}

/** The row of every method without settings. */
const NO_SETTINGS = { initial: () => ({}), spec: () => ({}), edit: (_spec: unknown, current: object) => current, problems: () => [], panel: null } as const;

/** A model the clusterer runs in the page: its id, and whether it may be fetched from the hub. */
export interface OwnModelDraft {
  model: string;
  allowRemote: boolean;
}

export const CLUSTERING_CHOICES = {
  judge: {
    initial: (): { judge: ModelDraft } => ({ judge: modelDraft() }),
    spec: (s, concurrency) => ({ judge: toModelSpec(s.judge, concurrency) }),
    edit: (c) => ({ judge: modelDraftOf(c.judge) }),
    problems: (s) => modelProblems(s.judge, 'The clustering judge', { judge: true }),
    models: (s) => [s.judge],
    panel: JudgeClusteringPanel,
  } satisfies ClusteringChoice<'judge', { judge: ModelDraft }>,
  embedding: {
    // Download a model the app does not ship from the Hugging Face hub (off: "use shipped models only").
    initial: (): OwnModelDraft & { threshold: number } => ({ model: DEFAULT_EMBEDDING_MODEL, threshold: DEFAULT_SIMILARITY_THRESHOLD, allowRemote: true }),
    spec: (s) => ({ model: s.model.trim(), threshold: s.threshold, allowRemote: s.allowRemote }),
    edit: (c, current) => ({ model: c.model, threshold: c.threshold, allowRemote: c.allowRemote ?? current.allowRemote }),
    problems: (s) => [...(s.threshold > 0 && s.threshold < 1 ? [] : ['The similarity threshold must be between 0 and 1.']), ...embeddingProblems(s.model, { allowDownload: s.allowRemote })],
    panel: EmbeddingClusteringPanel,
  } satisfies ClusteringChoice<'embedding', OwnModelDraft & { threshold: number }>,
  entailment: {
    initial: (): OwnModelDraft => ({ model: DEFAULT_NLI_MODEL, allowRemote: true }),
    spec: (s) => ({ model: s.model.trim(), allowRemote: s.allowRemote }),
    edit: (c, current) => ({ model: c.model, allowRemote: c.allowRemote ?? current.allowRemote }),
    problems: (s) => nliProblems(s.model, { allowDownload: s.allowRemote }),
    panel: NliClusteringPanel,
  } satisfies ClusteringChoice<MethodWithOwnModel<'nli'>, OwnModelDraft>,
  exact: NO_SETTINGS,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
} satisfies { [M in ClusteringMethodName]: ClusteringChoice<M, any> };

/** The settings the wizard keeps for each method. */
export type ClusteringDrafts = { [M in ClusteringMethodName]: ReturnType<(typeof CLUSTERING_CHOICES)[M]['initial']> };

/** A method's row, its settings' type held loosely (the caller pairs a method with its own settings). */
function choiceOf(method: ClusteringMethodName): ClusteringChoice<ClusteringMethodName, object> {
  return CLUSTERING_CHOICES[method] as unknown as ClusteringChoice<ClusteringMethodName, object>;
}

/** Each method's settings as the wizard starts. */
export function initialClusteringDrafts(): ClusteringDrafts {
  return Object.fromEntries(Object.entries(CLUSTERING_CHOICES).map(([m, c]) => [m, c.initial()])) as ClusteringDrafts;
}

/** `method`'s settings as the run spec's clustering. */
export function clusteringSpecOf(method: ClusteringMethodName, drafts: ClusteringDrafts, concurrency?: number): ClusteringSpec {
  return { method, ...choiceOf(method).spec(drafts[method], concurrency) } as ClusteringSpec;
}

/** The settings the wizard keeps for `spec`'s method, from the spec. */
export function clusteringDraftOf(spec: ClusteringSpec, drafts: ClusteringDrafts): ClusteringDrafts[ClusteringMethodName] {
  return choiceOf(spec.method).edit(spec as never, drafts[spec.method]) as ClusteringDrafts[ClusteringMethodName];
}

/** What stops `method`'s settings before Start. */
export function clusteringProblems(method: ClusteringMethodName, drafts: ClusteringDrafts): string[] {
  return choiceOf(method).problems(drafts[method]);
}

/** The models `method` asks besides the sampled ones. */
export function clusteringModels(method: ClusteringMethodName, drafts: ClusteringDrafts): ModelDraft[] {
  return choiceOf(method).models?.(drafts[method]) ?? [];
}

/** `method`'s settings panel, if it has settings. */
export function clusteringPanel(method: ClusteringMethodName): Component<ClusteringPanelProps<object>> | null {
  return choiceOf(method).panel as Component<ClusteringPanelProps<object>> | null;
}

/**
 * What the review says of a model the clusterer runs in the page, by its role (the methods
 * table's `ownModel`): who the model is and what will be downloaded.
 */
export const OWN_MODEL_DOWNLOAD_TEXT: Record<OwnModelRole, (model: string, download: ModelDownload) => string> = {
  embedding: embeddingDownloadText,
  nli: nliDownloadText,
};
