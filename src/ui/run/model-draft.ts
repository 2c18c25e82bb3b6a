/**
 * A model as the New run wizard edits it (a sampled model or a judge): made, read from a spec,
 * turned into the spec's ModelSpec, and checked in words. Apart from the draft so the clustering
 * choices (clustering-choice.ts) and the model fields use it without importing the draft.
 */
import type { ModelSpec } from '../../model/run-spec';
import { getPreset, PRESETS } from '../../providers/presets';

export interface ModelDraft {
  uid: number;
  preset: string;
  model: string;
  baseUrl: string;
}

let nextUid = 1;
export function modelDraft(preset = 'openai', model = 'gpt-4o-mini'): ModelDraft {
  return { uid: nextUid++, preset, model, baseUrl: getPreset(preset)?.baseUrl ?? '' };
}

/** A model of a spec as the wizard edits it (a new uid: the list's key). */
export function modelDraftOf(m: Pick<ModelSpec, 'preset' | 'model' | 'baseUrl'>): ModelDraft {
  return { ...modelDraft(m.preset, m.model), baseUrl: m.baseUrl };
}

export function toModelSpec(m: ModelDraft, concurrency?: number): ModelSpec {
  const preset = getPreset(m.preset);
  return { kind: preset?.kind ?? 'openai', preset: m.preset, baseUrl: m.baseUrl.trim(), model: m.model.trim(), ...(concurrency ? { concurrency } : {}) };
}

/** What stops a model's settings (`name`: the model in the words); `judge`: the model judges answers, which the in-page model cannot. */
export function modelProblems(m: ModelDraft, name: string, { judge = false }: { judge?: boolean } = {}): string[] {
  const out: string[] = [];
  if (!PRESETS[m.preset]) out.push(`${name}: choose a provider.`);
  if (!m.model.trim()) out.push(`${name}: enter a model id.`);
  // The in-page model has no address; it samples answers but does not judge them.
  if (getPreset(m.preset)?.kind === 'in-browser') {
    if (judge) out.push(`${name}: the in-browser model can only answer questions; choose a provider with an API for the judge.`);
    return out;
  }
  if (getPreset(m.preset)?.custom && !m.baseUrl.trim()) {
    out.push(`${name}: enter the base URL of the server (e.g. http://localhost:8000/v1).`);
    return out;
  }
  try {
    const url = new URL(m.baseUrl);
    if (!/^https?:$/.test(url.protocol)) out.push(`${name}: the base URL must start with http:// or https://.`);
  } catch {
    out.push(`${name}: the base URL is not a valid URL.`);
  }
  return out;
}
