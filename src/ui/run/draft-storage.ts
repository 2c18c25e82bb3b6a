/**
 * The New run wizard's draft kept in this tab's session storage, so Back/Forward, leaving the
 * page and reloading lose nothing: what the user chose, never a key (keys live in the key ring)
 * and never a loaded hub dataset (it is read again from IndexedDB, so that costs no download).
 * A file's text is kept when it is small enough for session storage; a larger file has to be
 * chosen again, and the page says so. What is read back is checked field by field: anything of
 * the wrong shape (an older draft, a hand-edited one) is ignored rather than trusted.
 */
import type { ColumnMapping, ColumnRole } from '../../formats/datasets';
import { catalogueEntry } from '../../hub/catalogue';
import type { McJobSpec, SamplingSpec } from '../../model/run-spec';
import { MAX_KEPT_FILE_CHARS, modelDraft, type ModelDraft, type RunDraft } from './draft.svelte';

export { MAX_KEPT_FILE_CHARS };

const STORAGE_KEY = 'semece-new-run-draft';
const COLUMN_ROLES: readonly ColumnRole[] = ['id', 'question', 'answer', 'aliases', 'category', 'options', 'skip-if-present', 'ignore'];
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
  /**
   * A one-line note when a stored draft was dropped (unreadable, another version) or parts of it
   * were ignored (the wrong shape: hand-edited, or from an older build): the page shows it once.
   */
  note?: string;
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
    forgetDraft(storage);
    return { found: false, reloadHub: false, note: DROPPED_NOTE };
  }
  if (!isObject(raw) || raw.version !== VERSION) {
    forgetDraft(storage);
    return { found: false, reloadHub: false, note: DROPPED_NOTE };
  }
  const s = raw;
  /** Fields present but of the wrong shape: left at their defaults and named in the note. */
  const ignored: string[] = [];
  const take = (field: keyof typeof FIELD_NAMES, ok: boolean, apply: () => void) => {
    if (ok) apply();
    else if (s[field] !== undefined) ignored.push(FIELD_NAMES[field]);
  };
  take('step', num(s.step), () => (d.step = Math.max(0, Math.min(3, Math.floor(s.step as number)))));
  take('title', str(s.title), () => (d.title = s.title as string));
  take('datasetChoice', oneOf(s.datasetChoice, ['demo', 'file', 'hub'] as const), () => (d.datasetChoice = s.datasetChoice as RunDraft['datasetChoice']));
  take('demoCount', num(s.demoCount), () => (d.demoCount = s.demoCount as number));
  const sub = s.subset;
  take('subset', isObject(sub) && bool(sub.on) && num(sub.n) && num(sub.seed) && bool(sub.stratify), () => {
    const v = sub as RunDraft['subset'];
    d.subset = { on: v.on, n: v.n, seed: v.seed, stratify: v.stratify };
  });
  let ready: Promise<void> | undefined;
  const file = s.file;
  take('file', isObject(file) && str(file.name) && str(file.text), () => {
    const { name, text } = file as { name: string; text: string };
    const mapping = isObject(s.mapping) && Object.values(s.mapping).every((r) => oneOf(r, COLUMN_ROLES)) && Object.keys(s.mapping).length > 0 ? (s.mapping as ColumnMapping) : undefined;
    ready = d.loadFile(name, text, mapping);
  });
  let reloadHub = false;
  take('hub', isObject(s.hub), () => {
    const h = s.hub as Record<string, unknown>;
    if (str(h.choice) && (h.choice === 'other' || catalogueEntry(h.choice))) d.hub.choice = h.choice as RunDraft['hub']['choice'];
    for (const k of ['repo', 'config', 'split', 'file', 'hubUrl'] as const) if (str(h[k])) d.hub[k] = h[k];
    reloadHub = h.loaded === true;
  });
  const models = Array.isArray(s.models) ? s.models.map(modelOf) : [];
  take('models', models.length > 0 && models.every((m) => m !== undefined), () => (d.models = models as ModelDraft[]));
  const sp = s.sampling;
  take('sampling', isObject(sp) && num(sp.n) && num(sp.temperature) && num(sp.maxTokens) && num(sp.concurrency) && str(sp.prompt) && (sp.topP === undefined || num(sp.topP)), () => {
    const v = sp as unknown as SamplingSpec;
    d.sampling = { n: v.n, temperature: v.temperature, maxTokens: v.maxTokens, concurrency: v.concurrency, prompt: v.prompt, ...(v.topP !== undefined ? { topP: v.topP } : {}) };
  });
  take('clusteringMethod', oneOf(s.clusteringMethod, ['exact', 'embedding', 'entailment', 'judge'] as const), () => (d.clusteringMethod = s.clusteringMethod as RunDraft['clusteringMethod']));
  const cj = modelOf(s.clusteringJudge);
  take('clusteringJudge', cj !== undefined, () => (d.clusteringJudge = cj!));
  take('embeddingModel', str(s.embeddingModel), () => (d.embeddingModel = s.embeddingModel as string));
  take('embeddingThreshold', num(s.embeddingThreshold), () => (d.embeddingThreshold = s.embeddingThreshold as number));
  take('embeddingAllowRemote', bool(s.embeddingAllowRemote), () => (d.embeddingAllowRemote = s.embeddingAllowRemote as boolean));
  take('nliModel', str(s.nliModel), () => (d.nliModel = s.nliModel as string));
  take('nliAllowRemote', bool(s.nliAllowRemote), () => (d.nliAllowRemote = s.nliAllowRemote as boolean));
  take('gradingMethod', oneOf(s.gradingMethod, ['alias', 'judge'] as const), () => (d.gradingMethod = s.gradingMethod as RunDraft['gradingMethod']));
  const gj = modelOf(s.gradingJudge);
  take('gradingJudge', gj !== undefined, () => (d.gradingJudge = gj!));
  take('mode', oneOf(s.mode, ['open', 'mc'] as const), () => (d.mode = s.mode as RunDraft['mode']));
  const mc = s.mc;
  take('mc', isObject(mc) && num(mc.runs) && num(mc.seed) && num(mc.samples) && bool(mc.logprobs), () => {
    const v = mc as unknown as McJobSpec;
    d.mc = { runs: v.runs, seed: v.seed, samples: v.samples, logprobs: v.logprobs };
  });
  const note = ignored.length > 0 ? `Part of the saved draft could not be restored and was left at its default (${ignored.join(', ')}).` : undefined;
  return { found: true, reloadHub, ...(ready ? { ready } : {}), ...(note ? { note } : {}), ...(str(s.fileDropped) && !s.file ? { fileToChooseAgain: s.fileDropped } : {}) };
}

/** Each stored field in the words of the wizard, for the note naming what could not be restored. */
const FIELD_NAMES = {
  step: 'step',
  title: 'run title',
  datasetChoice: 'dataset choice',
  demoCount: 'number of demo questions',
  subset: 'subset',
  file: 'dataset file',
  hub: 'hub dataset',
  models: 'models',
  sampling: 'sampling settings',
  clusteringMethod: 'clustering method',
  clusteringJudge: 'clustering judge',
  embeddingModel: 'embedding model',
  embeddingThreshold: 'similarity threshold',
  embeddingAllowRemote: 'embedding model download',
  nliModel: 'NLI model',
  nliAllowRemote: 'NLI model download',
  gradingMethod: 'grading method',
  gradingJudge: 'grading judge',
  mode: 'question mode',
  mc: 'multiple-choice settings',
} as const;

/** The note for a stored draft that could not be read at all (it is removed, so the next reload starts clean). */
export const DROPPED_NOTE = 'The saved draft of this page could not be read, so it was dropped: the wizard starts afresh.';
