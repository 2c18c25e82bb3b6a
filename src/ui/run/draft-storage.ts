/**
 * The New run wizard's draft kept in this tab's session storage, so Back/Forward, leaving the
 * page and reloading lose nothing: what the user chose, never a key (keys live in the key ring)
 * and never a loaded hub dataset (it is read again from IndexedDB, so that costs no download).
 * A file's text is kept when it is small enough for session storage; a larger file has to be
 * chosen again, and the page says so.
 *
 * The run's settings are kept as a RunSpec without its dataset (RunDraft.draftSpec) and read back
 * through the schema a stored run's spec is checked with (formats/run-spec-schema.ts); the
 * wizard's own choices (step, dataset source, the settings of the methods not chosen) beside it.
 * Each field is checked on its own: one of the wrong shape (a hand-edited draft) is left at its
 * default and named in a note, never trusted. A draft of version 1 (the wizard's fields, before
 * the RunSpec shape) is moved into this shape first and then checked the same way.
 */
import { z } from 'zod';
import type { ColumnMapping, ColumnRole } from '../../formats/datasets';
import { adaptiveSettingsSchema, clusteringSpecSchema, draftSpecSchema, gradingSpecSchema } from '../../formats/run-spec-schema';
import { adaptiveSettingsOf } from './adaptive-choice';
import { catalogueEntry } from '../../hub/catalogue';
import { getPreset } from '../../providers/presets';
import { MAX_KEPT_FILE_CHARS, type DraftSpec, type RunDraft } from './draft.svelte';

export { MAX_KEPT_FILE_CHARS };

const STORAGE_KEY = 'semece-new-run-draft';
const COLUMN_ROLES = ['id', 'question', 'answer', 'aliases', 'category', 'options', 'skip-if-present', 'ignore'] as const satisfies readonly ColumnRole[];
const VERSION = 2;

/** The methods a clustering spec may name, read off the schema (so a new method needs no change here). */
const CLUSTERING_METHODS = clusteringSpecSchema.options.map((o) => o.shape.method.value);
const GRADING_METHODS = gradingSpecSchema.options.map((o) => o.shape.method.value);

/** The wizard's choices that are not run settings; every field may be missing. */
const wizardSchema = z
  .object({
    step: z.number(),
    datasetChoice: z.enum(['demo', 'file', 'hub']),
    demoCount: z.number(),
    file: z.object({ name: z.string(), text: z.string() }),
    /** A file too large to keep: its name, so the page can ask for it again. */
    fileDropped: z.string(),
    mapping: z.record(z.string(), z.enum(COLUMN_ROLES)),
    subset: z.object({ on: z.boolean(), n: z.number(), seed: z.number(), stratify: z.boolean() }),
    hub: z.object({ choice: z.string(), repo: z.string(), config: z.string(), split: z.string(), file: z.string(), hubUrl: z.string(), loaded: z.boolean() }).partial(),
    mode: z.enum(['open', 'mc']),
    /** The settings of the clustering and grading methods not chosen, so switching back finds them. */
    otherClustering: z.array(clusteringSpecSchema),
    otherGrading: z.array(gradingSpecSchema),
    /** Adaptive sampling's settings while it is off (on, they are in the spec's sampling), so switching back finds them. */
    adaptiveKept: adaptiveSettingsSchema,
  })
  .partial();

type WizardState = z.output<typeof wizardSchema>;

interface StoredDraft {
  version: typeof VERSION;
  spec: Required<DraftSpec>;
  wizard: WizardState;
}

/** The draft as plain data (reading every field, so an $effect around it reruns on any change). */
export function snapshotDraft(d: RunDraft): StoredDraft {
  // The worker hands the text back only when it is small enough to keep (draft.svelte.ts).
  const text = d.file?.text;
  const keepFile = d.file !== null && text !== undefined && text.length <= MAX_KEPT_FILE_CHARS;
  return {
    version: VERSION,
    spec: d.draftSpec(),
    wizard: {
      step: d.step,
      datasetChoice: d.datasetChoice,
      demoCount: d.demoCount,
      ...(keepFile ? { file: { name: d.file!.name, text: text! } } : {}),
      ...(d.file && !keepFile ? { fileDropped: d.file.name } : {}),
      mapping: { ...d.mapping } as WizardState['mapping'],
      subset: { ...d.subset },
      hub: { choice: d.hub.choice, repo: d.hub.repo, config: d.hub.config, split: d.hub.split, file: d.hub.file, hubUrl: d.hub.hubUrl, loaded: d.hub.current },
      mode: d.mode,
      // 'exact' and 'alias' have no settings to keep.
      otherClustering: CLUSTERING_METHODS.filter((m) => m !== d.clusteringMethod && m !== 'exact').map((m) => d.clusteringFor(m)),
      otherGrading: GRADING_METHODS.filter((m) => m !== d.gradingMethod && m !== 'alias').map((m) => d.gradingFor(m)),
      ...(d.adaptive.on ? {} : { adaptiveKept: { ...d.adaptive.settings } }),
    },
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

/** Each field of an object schema checked on its own: the fields that pass, and the names of those present that do not. */
function fieldByField<T extends z.ZodRawShape>(schema: z.ZodObject<T>, raw: Record<string, unknown>): { value: Partial<z.output<z.ZodObject<T>>>; bad: string[] } {
  const value: Record<string, unknown> = {};
  const bad: string[] = [];
  for (const [field, check] of Object.entries(schema.shape)) {
    if (raw[field] === undefined) continue;
    const read = (check as z.ZodType).safeParse(raw[field]);
    if (read.success) value[field] = read.data;
    else bad.push(field);
  }
  return { value: value as Partial<z.output<z.ZodObject<T>>>, bad };
}

/**
 * A version-1 draft (the wizard's own fields) moved into the RunSpec shape, unchecked: the
 * fields keep their values, so the check that follows names what is wrong in the same words.
 * Fields a version-1 draft did not have stay absent (NLI settings came later).
 */
export function fromVersion1(s: Record<string, unknown>): { spec: Record<string, unknown>; wizard: Record<string, unknown> } {
  const model = (m: unknown) => (isObject(m) ? { kind: (typeof m.preset === 'string' && getPreset(m.preset)?.kind) || 'openai', ...m } : m);
  // Each method's settings as a version-1 draft kept them (undefined: it kept none); the method is the row's name.
  const settings: Record<string, () => Record<string, unknown> | undefined> = {
    exact: () => ({}),
    judge: () => (s.clusteringJudge === undefined ? undefined : { judge: model(s.clusteringJudge) }),
    embedding: () => (s.embeddingModel === undefined && s.embeddingThreshold === undefined ? undefined : { model: s.embeddingModel, threshold: s.embeddingThreshold, allowRemote: s.embeddingAllowRemote }),
    entailment: () => (s.nliModel === undefined ? undefined : { model: s.nliModel, allowRemote: s.nliAllowRemote }),
  };
  const clustering = (method: string) => {
    const kept = settings[method]();
    return kept && { method, ...kept };
  };
  const chosen = typeof s.clusteringMethod === 'string' ? s.clusteringMethod : undefined;
  const grading = (method: unknown) => (method === 'judge' ? { method, judge: model(s.gradingJudge) } : { method });
  return {
    spec: {
      title: s.title,
      models: Array.isArray(s.models) ? s.models.map(model) : s.models,
      sampling: s.sampling,
      ...(s.clusteringMethod !== undefined ? { clustering: (chosen && Object.hasOwn(settings, chosen) && clustering(chosen)) || { method: s.clusteringMethod } } : {}),
      ...(s.gradingMethod !== undefined ? { grading: grading(s.gradingMethod) } : {}),
      mc: s.mc,
    },
    wizard: {
      step: s.step,
      datasetChoice: s.datasetChoice,
      demoCount: s.demoCount,
      file: s.file,
      fileDropped: s.fileDropped,
      mapping: s.mapping,
      subset: s.subset,
      hub: s.hub,
      mode: s.mode,
      otherClustering: Object.keys(settings).filter((m) => m !== chosen && m !== 'exact').flatMap((m) => clustering(m) ?? []),
      ...(s.gradingMethod !== 'judge' && s.gradingJudge !== undefined ? { otherGrading: [grading('judge')] } : {}),
    },
  };
}

/** The stored draft, read: `null` when it cannot be read at all (not JSON, another version, the wrong shape throughout). */
function readStored(text: string): { spec: Record<string, unknown>; wizard: Record<string, unknown> } | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(raw)) return null;
  if (raw.version === 1) return fromVersion1(raw);
  if (raw.version !== VERSION || !isObject(raw.spec) || !isObject(raw.wizard)) return null;
  return { spec: raw.spec, wizard: raw.wizard };
}

/** Puts a stored draft back into `d`, field by field; returns what the page still has to do. */
export function restoreDraft(d: RunDraft, storage: Storage | undefined = globalThis.sessionStorage): Restored {
  let text: string | null | undefined;
  try {
    text = storage?.getItem(STORAGE_KEY);
  } catch {
    return { found: false, reloadHub: false };
  }
  if (!text) return { found: false, reloadHub: false };
  const stored = readStored(text);
  if (!stored) {
    forgetDraft(storage);
    return { found: false, reloadHub: false, note: DROPPED_NOTE };
  }
  const { value: w, bad: badWizard } = fieldByField(wizardSchema, stored.wizard);
  const { value: spec, bad: badSpec } = fieldByField(draftSpecSchema, stored.spec);

  if (w.step !== undefined) d.step = Math.max(0, Math.min(3, Math.floor(w.step)));
  if (w.datasetChoice) d.datasetChoice = w.datasetChoice;
  if (w.demoCount !== undefined) d.demoCount = w.demoCount;
  if (w.subset) d.subset = { ...w.subset };
  let ready: Promise<void> | undefined;
  if (w.file) {
    const mapping = w.mapping && Object.keys(w.mapping).length > 0 ? (w.mapping as ColumnMapping) : undefined;
    ready = d.loadFile(w.file.name, w.file.text, mapping);
  }
  const h = w.hub;
  if (h?.choice !== undefined && (h.choice === 'other' || catalogueEntry(h.choice))) d.hub.choice = h.choice as RunDraft['hub']['choice'];
  for (const k of ['repo', 'config', 'split', 'file', 'hubUrl'] as const) if (h?.[k] !== undefined) d.hub[k] = h[k];
  if (w.mode) d.mode = w.mode;
  // The methods not chosen first, so the chosen one (in the spec) is the method the draft ends on.
  for (const c of w.otherClustering ?? []) d.rememberClustering(c as Parameters<RunDraft['rememberClustering']>[0]);
  for (const g of w.otherGrading ?? []) d.rememberGrading(g as Parameters<RunDraft['rememberGrading']>[0]);
  d.applySpec(spec as DraftSpec);
  if (w.adaptiveKept && !d.adaptive.on) d.adaptive.settings = adaptiveSettingsOf(w.adaptiveKept);

  const ignored = [...badWizard, ...badSpec].map((f) => FIELD_NAMES[f as keyof typeof FIELD_NAMES] ?? f);
  const note = ignored.length > 0 ? `Part of the saved draft could not be restored and was left at its default (${[...new Set(ignored)].join(', ')}).` : undefined;
  return { found: true, reloadHub: h?.loaded === true, ...(ready ? { ready } : {}), ...(note ? { note } : {}), ...(w.fileDropped !== undefined && !w.file ? { fileToChooseAgain: w.fileDropped } : {}) };
}

/** Each stored field in the words of the wizard, for the note naming what could not be restored. */
const FIELD_NAMES = {
  step: 'step',
  datasetChoice: 'dataset choice',
  demoCount: 'number of demo questions',
  subset: 'subset',
  file: 'dataset file',
  fileDropped: 'dataset file',
  mapping: 'column mapping',
  hub: 'hub dataset',
  mode: 'question mode',
  otherClustering: 'settings of the other clustering methods',
  otherGrading: 'grading judge',
  adaptiveKept: 'adaptive sampling settings',
  title: 'run title',
  models: 'models',
  sampling: 'sampling settings',
  clustering: 'clustering method',
  grading: 'grading method',
  scoring: 'scoring settings',
  mc: 'multiple-choice settings',
} as const;

/** The note for a stored draft that could not be read at all (it is removed, so the next reload starts clean). */
export const DROPPED_NOTE = 'The saved draft of this page could not be read, so it was dropped: the wizard starts afresh.';
