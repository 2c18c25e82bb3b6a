/**
 * The clustering choice of the New run wizard, one row per method of the methods table
 * (model/clustering-methods.ts): the settings the wizard keeps for it, how they become the run
 * spec's clustering and back, what stops them before Start, and the panel that edits them. The
 * options offered (value, label, description) derive from the table itself.
 *
 * A method with settings keeps its row in its panel, `clustering-panels/<Method>ClusteringPanel.svelte`
 * (exported as `choice` from the component's `<script module>`), found here by Vite's glob: adding
 * such a method touches no file of this folder but its panel. A method without settings has its
 * row below (`noSettings`). Every method has exactly one row, and a method with settings a panel:
 * `clusteringChoicesOf` refuses a table otherwise, when this module loads (the glob is not seen by
 * TypeScript, so this check stands where the compiler's once stood).
 */
import type { Component } from 'svelte';
import { CLUSTERING_METHODS, type ClusteringMethodName, type ClusteringMethodTable, type ClusteringSettings, type ClusteringSpec, type OwnModelRole } from '../../model/clustering-methods';
import type { ModelSpec } from '../../model/run-spec';
import type { KeyRing } from '../state/keys.svelte';
import { embeddingDownloadText } from './embedding-choice';
import { nliDownloadText } from './nli-choice';
import type { ModelDraft } from './model-draft';
import type { ModelDownload } from './model-choice';

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

/**
 * A method's settings as the wizard may keep them: its spec's settings, a model it asks as the
 * wizard edits one. What each row keeps must fit this (its `S`), so the drafts are typed per
 * method without naming the rows.
 */
export type ClusteringDraft<M extends ClusteringMethodName> = {
  [K in keyof Omit<ClusteringSettings<M>, 'method'>]: Omit<ClusteringSettings<M>, 'method'>[K] extends ModelSpec ? ModelDraft : Omit<ClusteringSettings<M>, 'method'>[K];
};

/** A method's row; `S`: its settings as the wizard keeps them (a judge as the wizard edits a model). */
export interface ClusteringChoice<M extends ClusteringMethodName, S extends ClusteringDraft<M> = ClusteringDraft<M>> {
  /** The method of the methods table the row is for. */
  method: M;
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
}

/** A model the clusterer runs in the page: its id, and whether it may be fetched from the hub. */
export interface OwnModelDraft {
  model: string;
  allowRemote: boolean;
}

/** A row of any method, of any table (a test's table may hold methods the shipped one lacks), its settings held loosely. */
export interface AnyClusteringChoice {
  method: string;
  initial(): object;
  spec(settings: object, concurrency?: number): object;
  edit(spec: never, current: object): object;
  problems(settings: object): string[];
  models?(settings: object): ModelDraft[];
}

/** A panel file as the glob imports it: the component, and the row of the method it edits. */
export interface ClusteringPanelModule {
  default: Component<ClusteringPanelProps<never>>;
  choice: AnyClusteringChoice;
}

/** A method's row with its panel (none for a method without settings). */
export type ClusteringChoiceWithPanel = AnyClusteringChoice & { panel: Component<ClusteringPanelProps<object>> | null };

/** The row of a method without settings: it keeps none and shows no panel. */
export function noSettings<M extends ClusteringMethodName>(method: M): ClusteringChoice<M> {
  return { method, initial: () => ({}) as ClusteringDraft<M>, spec: () => ({}) as Omit<ClusteringSettings<M>, 'method'>, edit: (_spec, current) => current, problems: () => [] };
}

/**
 * The wizard's rows of `methods`, by method: the rows of the panels (`panels`: the glob's modules,
 * by file) and those of methods without settings (`withoutPanel`). Throws, naming it, on a method
 * with no row or two, a row for a method the table lacks, a method with settings but no panel, or
 * one without settings given a panel.
 */
export function clusteringChoicesOf(methods: ClusteringMethodTable, panels: Record<string, ClusteringPanelModule>, withoutPanel: readonly AnyClusteringChoice[]): Record<string, ClusteringChoiceWithPanel> {
  const rows = [
    ...Object.entries(panels).map(([file, m]) => ({ where: file, row: { ...m.choice, panel: m.default as Component<ClusteringPanelProps<object>> } })),
    ...withoutPanel.map((c) => ({ where: 'clustering-choice.ts', row: { ...c, panel: null } })),
  ];
  const out: Record<string, ClusteringChoiceWithPanel> = {};
  const where: Record<string, string> = {};
  for (const { where: w, row } of rows) {
    const m = row.method;
    if (!Object.hasOwn(methods, m)) throw new Error(`the wizard has a row for "${m}" (${w}), which the methods table lacks`);
    if (Object.hasOwn(out, m)) throw new Error(`the wizard has two rows for "${m}" (${where[m]} and ${w})`);
    const hasSettings = Object.keys(methods[m].settings.shape).length > 0;
    if (hasSettings && !row.panel) throw new Error(`the clustering method "${m}" has settings but no panel: its row belongs in clustering-panels/, in its panel's <script module>`);
    if (!hasSettings && row.panel) throw new Error(`the clustering method "${m}" has no settings but a panel (${w})`);
    out[m] = row;
    where[m] = w;
  }
  const missing = Object.keys(methods).filter((m) => !Object.hasOwn(out, m));
  if (missing.length > 0) throw new Error(`the wizard has no row for the clustering method(s) ${missing.join(', ')}`);
  return out;
}

/** The shipped panels, one file per method with settings, each with its row. */
export const CLUSTERING_PANEL_MODULES: Record<string, ClusteringPanelModule> = import.meta.glob<ClusteringPanelModule>('./clustering-panels/*.svelte', { eager: true });

/** The shipped rows, by method. */
export const CLUSTERING_CHOICES = clusteringChoicesOf(CLUSTERING_METHODS, CLUSTERING_PANEL_MODULES, [noSettings('exact')]);

/** The settings the wizard keeps for each method. */
export type ClusteringDrafts = { [M in ClusteringMethodName]: ClusteringDraft<M> };

/** A method's row, its settings' type held loosely (the caller pairs a method with its own settings). */
function choiceOf(method: ClusteringMethodName): ClusteringChoiceWithPanel {
  return CLUSTERING_CHOICES[method];
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
  return choiceOf(method).panel;
}

/**
 * What the review says of a model the clusterer runs in the page, by its role (the methods
 * table's `ownModel`): who the model is and what will be downloaded.
 */
export const OWN_MODEL_DOWNLOAD_TEXT: Record<OwnModelRole, (model: string, download: ModelDownload) => string> = {
  embedding: embeddingDownloadText,
  nli: nliDownloadText,
};
