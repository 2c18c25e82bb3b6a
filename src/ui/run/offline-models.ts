/**
 * In-page models and the hub, on the page's side: which of a run's models must come from the
 * hub, whether each is already in the browser's cache (so the run needs no network), whether
 * the hub answers before a run starts, and "Download for offline use": a model's files fetched
 * into the cache while online, for later runs (a classroom) with none.
 *
 * Transformers.js keeps what it fetches in the Cache API ('transformers-cache') under each file's
 * hub address (model/model-hub.ts), so the cache answers "available offline" without loading the
 * library; a download is the model's own worker loading it once (the same files, the same cache).
 */
import { isShippedEmbeddingModel } from '../../clustering/embedding-models';
import { isShippedNliModel } from '../../clustering/nli-models';
import { ownModelOf, type OwnModelRole } from '../../model/clustering-methods';
import { hubFileUrl } from '../../model/model-hub';
import type { ModelLoadProgress } from '../../model/run-spec';
import type { Result } from '../../model/rows';
import { IN_BROWSER_PRESET, isShippedGenerationModel } from '../../providers/in-browser/models';
import { errorText } from '../error-text';

/** The Cache API cache Transformers.js keeps hub files in. */
const TRANSFORMERS_CACHE = 'transformers-cache';

/** How long the hub has to answer the check before a run. */
export const HUB_CHECK_TIMEOUT_MS = 5000;

export type HubModelRole = 'generation' | 'nli' | 'embedding';

export interface HubModel {
  model: string;
  role: HubModelRole;
}

export const ROLE_NAMES: Record<HubModelRole, string> = { generation: 'Language model', nli: 'NLI model', embedding: 'Embedding model' };

/** What the choice of models needs: a run's spec, or the wizard's draft on its way to one. */
export interface HubModelChoice {
  models: { preset: string; model: string }[];
  clustering: { method: string; model?: string; allowRemote?: boolean };
}

const SHIPPED_BY_ROLE: Record<OwnModelRole, (model: string) => boolean> = { nli: isShippedNliModel, embedding: isShippedEmbeddingModel };

/** The run's in-page models whose files come from the hub (not shipped, download allowed), each once. */
export function hubModelsOf(spec: HubModelChoice): HubModel[] {
  const out: HubModel[] = [];
  for (const m of spec.models) {
    if (m.preset === IN_BROWSER_PRESET && m.model.trim() && !isShippedGenerationModel(m.model.trim())) out.push({ model: m.model.trim(), role: 'generation' });
  }
  // The model the clustering runs itself, by its role in the methods table.
  const own = ownModelOf(spec.clustering);
  if (own && own.allowRemote && own.model && !SHIPPED_BY_ROLE[own.role](own.model)) out.push({ model: own.model, role: own.role });
  return out.filter((m, i) => out.findIndex((o) => o.model === m.model && o.role === m.role) === i);
}

/**
 * Whether the browser's cache holds `model`'s files from `hub`: its config.json and at least one
 * ONNX weights file, so the model loads with no network.
 */
export async function availableOffline(hub: string, model: string): Promise<boolean> {
  if (typeof caches === 'undefined') return false;
  const cache = await caches.open(TRANSFORMERS_CACHE);
  if (!(await cache.match(hubFileUrl(hub, model, 'config.json')))) return false;
  const prefix = hubFileUrl(hub, model, 'onnx/');
  return (await cache.keys()).some((r) => r.url.startsWith(prefix) && r.url.endsWith('.onnx'));
}

/**
 * Whether the hub answers for `model` (a HEAD of its config.json, within HUB_CHECK_TIMEOUT_MS):
 * any HTTP answer means the hub is there; no answer, why not, in a few words.
 */
export async function hubAnswers(hub: string, model: string, timeoutMs = HUB_CHECK_TIMEOUT_MS): Promise<Result<number>> {
  try {
    const response = await fetch(hubFileUrl(hub, model, 'config.json'), { method: 'HEAD', cache: 'no-store', signal: AbortSignal.timeout(timeoutMs) });
    return { ok: true, value: response.status };
  } catch (e) {
    const timedOut = (e as { name?: string })?.name === 'TimeoutError';
    const cause = timedOut ? `no answer within ${timeoutMs / 1000} s` : `${errorText(e)} (no connection)`;
    return { ok: false, error: { kind: 'hub-unreachable', message: cause } };
  }
}

/** The model client that loads a model of this role (created only when a download is asked for). */
async function clientFor(m: HubModel, hub: string) {
  const options = { model: m.model, allowRemoteModels: true, remoteHost: hub, webgpu: 'off' as const };
  if (m.role === 'nli') return (await import('../../workers/nli-client')).createNliClient(options);
  if (m.role === 'embedding') return (await import('../../workers/embedding-client')).createEmbeddingClient(options);
  return (await import('../../workers/generation-client')).createGenerationClient(options);
}

/**
 * Fetches `m`'s files from `hub` into the browser's cache by loading the model once in its own
 * worker (on WASM: only the files matter here), following the load; the worker ends after.
 */
export async function downloadForOffline(m: HubModel, hub: string, onLoad: (state: ModelLoadProgress) => void): Promise<Result<true>> {
  const client = await clientFor(m, hub);
  const unwatch = client.watchLoad(onLoad);
  try {
    const loaded = await client.init();
    return loaded.ok ? { ok: true, value: true } : loaded;
  } finally {
    unwatch();
    client.dispose();
  }
}
