/**
 * Where in-page models are downloaded from (the Hugging Face hub, or a mirror the user names) and
 * what it means when it cannot be reached. Pure: the page (the hub check before a run, the
 * offline download panel), the model workers (their load failures) and the clusterers share it.
 *
 * Transformers.js fetches a model's files from `{hub}{model}/resolve/{revision}/{file}` and keeps
 * them in the Cache API under that address ('transformers-cache'), so the address also says
 * whether a model is already available offline.
 */
import type { Result, StageError } from './rows';

export const DEFAULT_MODEL_HUB = 'https://huggingface.co/';

/** The error kind of a model that could not be fetched because the hub is not reachable at all. */
export const HUB_UNREACHABLE = 'hub-unreachable';

/** A hub address as Transformers.js wants it (http or https, ending in '/'), or why it is not one. */
export function normalizeModelHub(text: string): Result<string> {
  const trimmed = text.trim();
  if (!trimmed) return { ok: true, value: DEFAULT_MODEL_HUB };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, error: { kind: 'bad-input', message: `The model hub address "${trimmed}" is not a web address (e.g. ${DEFAULT_MODEL_HUB}).` } };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, error: { kind: 'bad-input', message: `The model hub address must start with https:// or http://, not ${url.protocol}` } };
  if (url.username || url.password) return { ok: false, error: { kind: 'bad-input', message: 'The model hub address must not hold a user name or password.' } };
  return { ok: true, value: `${url.origin}${url.pathname.replace(/\/*$/, '/')}` };
}

/** The host (and port) the messages name. */
export function hubHost(hub: string): string {
  try {
    return new URL(hub).host;
  } catch {
    return hub;
  }
}

/** A model file's address on the hub: also its key in the browser's 'transformers-cache'. */
export function hubFileUrl(hub: string, model: string, file: string, revision = 'main'): string {
  return `${hub.replace(/\/*$/, '/')}${model}/resolve/${encodeURIComponent(revision)}/${file.replace(/^\/+/, '')}`;
}

/**
 * Whether a failure is the network's, not the hub's answer: fetch's TypeError in a browser
 * ('Failed to fetch', Firefox's 'NetworkError', Safari's 'Load failed'), Node's 'fetch failed'
 * with its cause (a refused connection, a name that does not resolve).
 */
export function isNetworkFailure(err: unknown): boolean {
  const texts: string[] = [];
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    texts.push(String((e as { message?: unknown }).message ?? e), String((e as { code?: unknown }).code ?? ''));
  }
  const text = texts.join(' ');
  return /Failed to fetch|NetworkError when attempting to fetch|Load failed|fetch failed|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|getaddrinfo|ERR_NAME_NOT_RESOLVED|ERR_CONNECTION_REFUSED|ERR_INTERNET_DISCONNECTED|ENETUNREACH|EHOSTUNREACH/i.test(text);
}

/** The one wording of an unreachable hub, everywhere it is said. */
export function hubUnreachableMessage(hub: string, cause: string): string {
  return `The Hugging Face hub (${hubHost(hub)}) cannot be reached from this browser: ${cause}. Use exact match, or a shipped model, or download the model while online (Download for offline use, in the run's settings).`;
}

export function hubUnreachableError(hub: string, cause: string, where: string): StageError {
  return { kind: HUB_UNREACHABLE, message: hubUnreachableMessage(hub, cause), where };
}
