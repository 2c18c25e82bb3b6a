/**
 * The New run wizard's draft kept in this tab's session storage, so Back/Forward, leaving the
 * page and reloading lose nothing: what the user chose, never a key (keys live in the key ring)
 * and never a loaded hub dataset (it is read again from IndexedDB, so that costs no download).
 * A file's text is kept when it is small enough for session storage; a larger file has to be
 * chosen again, and the page says so. What is read back is checked field by field: anything of
 * the wrong shape (an older draft, a hand-edited one) is ignored rather than trusted.
 */
import type { ColumnMapping } from '../../formats/datasets';
import { catalogueEntry } from '../../hub/catalogue';
import type { McJobSpec, SamplingSpec } from '../../model/run-spec';
import { MAX_KEPT_FILE_CHARS, modelDraft, type ModelDraft, type RunDraft } from './draft.svelte';

export { MAX_KEPT_FILE_CHARS };

const STORAGE_KEY = 'semece-new-run-draft';
const VERSION = 1;

interface Snapshot {
  version: typeof VERSION;
  step: number;
  title: string;
  datasetChoice: RunDraft['datasetChoice'];
  demoCount: number;
  file?: { name: string; text: string };
  /** A file too large to keep: its name, so the page can ask for it again. */
  fileDropped?: string;
  mapping: ColumnMapping;
  subset: RunDraft['subset'];
  hub: { choice: string; repo: string; config: string; split: string; file: string; hubUrl: string; loaded: boolean };
  models: Omit<ModelDraft, 'uid'>[];
  sampling: SamplingSpec;
  clusteringMethod: RunDraft['clusteringMethod'];
  clusteringJudge: Omit<ModelDraft, 'uid'>;
  embeddingModel: string;
  embeddingThreshold: number;
  embeddingAllowRemote: boolean;
  /** Absent in drafts saved before entailment clustering. */
  nliModel?: string;
  nliAllowRemote?: boolean;
  gradingMethod: RunDraft['gradingMethod'];
  gradingJudge: Omit<ModelDraft, 'uid'>;
  mode: RunDraft['mode'];
  mc: McJobSpec;
}

const bare = ({ preset, model, baseUrl }: ModelDraft) => ({ preset, model, baseUrl });

/** The draft as plain data (reading every field, so an $effect around it reruns on any change). */
export function snapshotDraft(d: RunDraft): Snapshot {
  // The worker hands the text back only when it is small enough to keep (draft.svelte.ts).
  const text = d.file?.text;
  const keepFile = d.file !== null && text !== undefined && text.length <= MAX_KEPT_FILE_CHARS;
  return {
    version: VERSION,
    step: d.step,
    title: d.title,
    datasetChoice: d.datasetChoice,
    demoCount: d.demoCount,
    ...(keepFile ? { file: { name: d.file!.name, text: text! } } : {}),
    ...(d.file && !keepFile ? { fileDropped: d.file.name } : {}),
    mapping: { ...d.mapping },
    subset: { ...d.subset },
    hub: { choice: d.hub.choice, repo: d.hub.repo, config: d.hub.config, split: d.hub.split, file: d.hub.file, hubUrl: d.hub.hubUrl, loaded: d.hub.current },
    models: d.models.map(bare),
    sampling: { ...d.sampling },
    clusteringMethod: d.clusteringMethod,
    clusteringJudge: bare(d.clusteringJudge),
    embeddingModel: d.embeddingModel,
    embeddingThreshold: d.embeddingThreshold,
    embeddingAllowRemote: d.embeddingAllowRemote,
    nliModel: d.nliModel,
    nliAllowRemote: d.nliAllowRemote,
    gradingMethod: d.gradingMethod,
    gradingJudge: bare(d.gradingJudge),
    mode: d.mode,
    mc: { ...d.mc },
  };
}

export function saveDraft(d: RunDraft, storage: Storage | undefined = globalThis.sessionStorage): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(snapshotDraft(d)));
  } catch {
    // Session storage full or refused (a private window): the draft lives only in this page.
  }
}

export function forgetDraft(storage: Storage | undefined = globalThis.sessionStorage): void {
  try {
    storage?.removeItem(STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): v is string => typeof v === 'string';
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const bool = (v: unknown): v is boolean => typeof v === 'boolean';
const oneOf = <T extends string>(v: unknown, values: readonly T[]): v is T => typeof v === 'string' && (values as readonly string[]).includes(v);
const modelOf = (v: unknown): ModelDraft | undefined =>
  isObject(v) && str(v.preset) && str(v.model) && str(v.baseUrl) ? { ...modelDraft(v.preset, v.model), baseUrl: v.baseUrl } : undefined;

/** What restoring found: whether a draft was there, and a file to choose again if it was too large to keep. */
export interface Restored {
  found: boolean;
  fileToChooseAgain?: string;
  /** The hub dataset was loaded: load it again (from IndexedDB) once the page is up. */
  reloadHub: boolean;
  /** Settles when a kept file has been read again (in the dataset worker). */
  ready?: Promise<void>;
}

/** Puts a stored draft back into `d`, field by field; returns what the page still has to do. */
export function restoreDraft(d: RunDraft, storage: Storage | undefined = globalThis.sessionStorage): Restored {
  let raw: unknown;
  try {
    const text = storage?.getItem(STORAGE_KEY);
    if (!text) return { found: false, reloadHub: false };
    raw = JSON.parse(text);
  } catch {
    return { found: false, reloadHub: false };
  }
  if (!isObject(raw) || raw.version !== VERSION) return { found: false, reloadHub: false };
  const s = raw;
  if (num(s.step)) d.step = Math.max(0, Math.min(3, Math.floor(s.step)));
  if (str(s.title)) d.title = s.title;
  if (oneOf(s.datasetChoice, ['demo', 'file', 'hub'] as const)) d.datasetChoice = s.datasetChoice;
  if (num(s.demoCount)) d.demoCount = s.demoCount;
  if (isObject(s.subset) && bool(s.subset.on) && num(s.subset.n) && num(s.subset.seed) && bool(s.subset.stratify)) d.subset = { on: s.subset.on, n: s.subset.n, seed: s.subset.seed, stratify: s.subset.stratify };
  let ready: Promise<void> | undefined;
  if (isObject(s.file) && str(s.file.name) && str(s.file.text)) {
    const mapping = isObject(s.mapping) && Object.values(s.mapping).every(str) && Object.keys(s.mapping).length > 0 ? (s.mapping as ColumnMapping) : undefined;
    ready = d.loadFile(s.file.name, s.file.text, mapping);
  }
  let reloadHub = false;
  if (isObject(s.hub)) {
    const h = s.hub;
    if (str(h.choice) && (h.choice === 'other' || catalogueEntry(h.choice))) d.hub.choice = h.choice as RunDraft['hub']['choice'];
    for (const k of ['repo', 'config', 'split', 'file', 'hubUrl'] as const) if (str(h[k])) d.hub[k] = h[k];
    reloadHub = h.loaded === true;
  }
  if (Array.isArray(s.models)) {
    const models = s.models.map(modelOf).filter((m): m is ModelDraft => m !== undefined);
    if (models.length > 0) d.models = models;
  }
  if (isObject(s.sampling) && num(s.sampling.n) && num(s.sampling.temperature) && num(s.sampling.maxTokens) && num(s.sampling.concurrency)) {
    d.sampling = { ...d.sampling, ...(s.sampling as unknown as SamplingSpec) };
  }
  if (oneOf(s.clusteringMethod, ['exact', 'embedding', 'entailment', 'judge'] as const)) d.clusteringMethod = s.clusteringMethod;
  const cj = modelOf(s.clusteringJudge);
  if (cj) d.clusteringJudge = cj;
  if (str(s.embeddingModel)) d.embeddingModel = s.embeddingModel;
  if (num(s.embeddingThreshold)) d.embeddingThreshold = s.embeddingThreshold;
  if (bool(s.embeddingAllowRemote)) d.embeddingAllowRemote = s.embeddingAllowRemote;
  if (str(s.nliModel)) d.nliModel = s.nliModel;
  if (bool(s.nliAllowRemote)) d.nliAllowRemote = s.nliAllowRemote;
  if (oneOf(s.gradingMethod, ['alias', 'judge'] as const)) d.gradingMethod = s.gradingMethod;
  const gj = modelOf(s.gradingJudge);
  if (gj) d.gradingJudge = gj;
  if (oneOf(s.mode, ['open', 'mc'] as const)) d.mode = s.mode;
  if (isObject(s.mc) && num(s.mc.runs) && num(s.mc.seed) && num(s.mc.samples) && bool(s.mc.logprobs)) d.mc = { runs: s.mc.runs, seed: s.mc.seed, samples: s.mc.samples, logprobs: s.mc.logprobs };
  return { found: true, reloadHub, ...(ready ? { ready } : {}), ...(str(s.fileDropped) && !s.file ? { fileToChooseAgain: s.fileDropped } : {}) };
}
