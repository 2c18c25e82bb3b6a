/**
 * Reading a dataset's files from the Hugging Face hub through its public endpoints:
 *   listing   GET {hub}/api/datasets/{repo}/tree/{revision}/{folder}   → [{ type, path, size }]
 *   a file    GET {hub}/datasets/{repo}/resolve/{revision}/{path}
 * A split's Parquet conversion lives on the revision `refs/convert/parquet` under
 * `{config}/{split}/`. The hub address is a parameter (tests serve the same layout on loopback),
 * a token goes only to that address, and never into a cache key, a message or a record. Every
 * response is kept in the HubFileCache under its URL, so a second load reads nothing from the
 * network; sizes from the listing are known before any file is fetched.
 */
import { MAX_DATASET_BYTES } from '../formats/datasets';
import type { HubFileCache } from '../model/hub-file-cache';
import type { Progress } from '../model/progress';
import type { Result, StageError } from '../model/rows';
import { DEFAULT_HUB_URL, type HubSource } from './catalogue';
import { errorMessage } from '../model/app-error';

export const PARQUET_REVISION = 'refs/convert/parquet';

export interface HubFile {
  path: string;
  size: number;
  url: string;
}

/**
 * The model's one progress shape: `item` is the file being fetched or read, when there is one;
 * `done` and `total` are bytes over every file of the split.
 */
export interface HubProgress extends Progress<'listing' | 'downloading' | 'reading'> {
  done: number;
  total: number;
  /** Bytes that came from the cache instead of the network. */
  cached: number;
}

export interface HubOptions {
  hubUrl?: string;
  /** A Hugging Face access token, for gated datasets. */
  token?: string;
  cache: HubFileCache;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  onProgress?: (p: HubProgress) => void;
  /** The largest total download accepted (default: the dataset file limit). */
  maxBytes?: number;
}

const enc = (segment: string) => segment.split('/').map(encodeURIComponent).join('/');

/** The hub's base without a trailing slash, or why it is not one. */
export function hubBase(hubUrl: string = DEFAULT_HUB_URL): Result<string> {
  let url: URL;
  try {
    url = new URL(hubUrl);
  } catch {
    return fail(`The hub address "${hubUrl}" is not a URL.`, 'hub address');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail(`The hub address must start with https:// (got ${url.protocol}).`, 'hub address');
  if (url.username || url.password) return fail('The hub address must not carry a user name or password; enter the token in its own field.', 'hub address');
  return { ok: true, value: url.href.replace(/\/+$/, '') };
}

export function treeUrl(base: string, repo: string, revision: string, folder: string): string {
  return `${base}/api/datasets/${enc(repo)}/tree/${encodeURIComponent(revision)}/${enc(folder)}`;
}

export function resolveUrl(base: string, repo: string, revision: string, path: string): string {
  return `${base}/datasets/${enc(repo)}/resolve/${encodeURIComponent(revision)}/${enc(path)}`;
}

function fail<T>(message: string, where: string, status?: number): Result<T> {
  const error: StageError = { kind: 'dataset', message, where };
  if (status !== undefined) error.status = status;
  return { ok: false, error };
}

const REPO_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Why a repo id cannot be one ("owner/name"), or nothing. */
export function badRepoId(repo: string): string | undefined {
  return REPO_ID.test(repo) ? undefined : `"${repo}" is not a hub dataset id: expected owner/name, e.g. basicv8vc/SimpleQA.`;
}

/** What a refused request means for a hub dataset, in words a user can act on. */
function refused(status: number, { repo, what, base, hadToken }: { repo: string; what: string; base: string; hadToken: boolean }): string {
  const page = `${base}/datasets/${repo}`;
  if (status === 401) {
    return hadToken
      ? `The hub did not accept the token for ${repo} (401): check that it is a valid Hugging Face access token with read access.`
      : `${repo} needs a Hugging Face token (401: it is gated or private): accept its conditions at ${page}, then enter a token with read access.`;
  }
  if (status === 403) return `The token has no access to ${repo} (403): accept the dataset's conditions at ${page} with the account the token belongs to.`;
  if (status === 404) return `The hub has no ${what} (404): check the dataset id, config and split on ${page}.`;
  if (status === 429) return `The hub is limiting requests (429) while reading ${what}: wait a minute and load again.`;
  return `The hub answered ${status} for ${what}.`;
}

interface Fetched {
  bytes: Uint8Array;
  fromCache: boolean;
}

/** A URL's body, from the cache or the network (then cached), counted into `onBytes` as it arrives. */
async function fetchBytes(url: string, what: string, repo: string, base: string, options: HubOptions, limit: number, onBytes: (n: number) => void): Promise<Result<Fetched>> {
  const hit = await options.cache.get(url);
  if (hit) {
    onBytes(hit.length);
    return { ok: true, value: { bytes: hit, fromCache: true } };
  }
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { headers, signal: options.signal });
  } catch (e) {
    if (options.signal?.aborted) return fail('Loading was cancelled.', what);
    return fail(`Could not reach the hub at ${base} (${errorMessage(e)}): check the connection, or the hub address.`, what);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return fail(refused(response.status, { repo, what, base, hadToken: Boolean(options.token) }), what, response.status);
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    return fail(`${what} is ${mb(declared)}; at most ${mb(limit)} is read.`, what);
  }
  const parts: Uint8Array[] = [];
  let length = 0;
  try {
    if (!response.body) throw new Error('no body');
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.length;
      if (length > limit) {
        await reader.cancel().catch(() => undefined);
        return fail(`${what} is larger than ${mb(limit)}; at most that much is read.`, what);
      }
      parts.push(value);
      onBytes(value.length);
    }
  } catch (e) {
    if (options.signal?.aborted) return fail('Loading was cancelled.', what);
    return fail(`The download of ${what} broke off after ${mb(length)} (${errorMessage(e)}): load again.`, what);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { ok: true, value: { bytes, fromCache: false } };
}

/**
 * Caches a fetched body only once it has been read successfully (a bad file is fetched again next
 * time). A cache that cannot take it (storage full) costs only a download next time, so the
 * dataset still loads.
 */
export async function keep(url: string, fetched: Fetched, cache: HubFileCache): Promise<void> {
  if (fetched.fromCache) return;
  try {
    await cache.put(url, fetched.bytes);
  } catch {
    // Not kept: the next load fetches it again.
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The files that make up a source (a split's Parquet shards in order, or the one file), with sizes. */
export async function listHubFiles(source: HubSource, options: HubOptions): Promise<Result<HubFile[]>> {
  const badId = badRepoId(source.repo);
  if (badId) return fail(badId, 'dataset id');
  const base = hubBase(options.hubUrl);
  if (!base.ok) return base;
  const revision = 'file' in source ? source.revision ?? 'main' : PARQUET_REVISION;
  const folder = 'file' in source ? source.file.split('/').slice(0, -1).join('/') : `${source.config}/${source.split}`;
  const what = 'file' in source ? `the folder of ${source.file} in ${source.repo}` : `a Parquet conversion of config "${source.config}", split "${source.split}" of ${source.repo}`;
  const url = treeUrl(base.value, source.repo, revision, folder);
  options.onProgress?.({ phase: 'listing', done: 0, total: 0, unit: 'bytes', cached: 0 });
  const got = await fetchBytes(url, what, source.repo, base.value, options, 16 * 1024 * 1024, () => undefined);
  if (!got.ok) return got;
  let entries: unknown;
  try {
    entries = JSON.parse(new TextDecoder().decode(got.value.bytes));
  } catch {
    return fail(`The hub's listing of ${what} is not JSON.`, what);
  }
  if (!Array.isArray(entries)) return fail(`The hub's listing of ${what} is not a list of files.`, what);
  const files: HubFile[] = [];
  for (const e of entries as { type?: unknown; path?: unknown; size?: unknown }[]) {
    if (e?.type !== 'file' || typeof e.path !== 'string') continue;
    const wanted = 'file' in source ? e.path === source.file : e.path.endsWith('.parquet');
    if (!wanted) continue;
    files.push({ path: e.path, size: typeof e.size === 'number' && e.size >= 0 ? e.size : 0, url: resolveUrl(base.value, source.repo, revision, e.path) });
  }
  if (files.length === 0) {
    return fail('file' in source ? `${source.repo} has no file ${source.file} on ${revision}.` : `The hub lists no Parquet files for ${what}: check the config and split names.`, what, 404);
  }
  await keep(url, got.value, options.cache);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ok: true, value: files };
}

export interface DownloadedFile extends HubFile {
  bytes: Uint8Array;
  fromCache: boolean;
}

/** Every file's bytes, in order, with progress over the total the listing gave. */
export async function downloadHubFiles(repo: string, files: readonly HubFile[], options: HubOptions): Promise<Result<DownloadedFile[]>> {
  const base = hubBase(options.hubUrl);
  if (!base.ok) return base;
  const limit = options.maxBytes ?? MAX_DATASET_BYTES;
  const total = files.reduce((s, f) => s + f.size, 0);
  if (total > limit) return fail(`The split is ${mb(total)} in ${files.length} file(s); at most ${mb(limit)} is read. Choose a smaller split.`, repo);
  let loaded = 0;
  let cached = 0;
  const out: DownloadedFile[] = [];
  for (const f of files) {
    const got = await fetchBytes(f.url, f.path, repo, base.value, options, limit - loaded, (n) => {
      loaded += n;
      options.onProgress?.({ phase: 'downloading', item: f.path, done: loaded, total: Math.max(total, loaded), unit: 'bytes', cached });
    });
    if (!got.ok) return got;
    if (got.value.fromCache) cached += got.value.bytes.length;
    out.push({ ...f, bytes: got.value.bytes, fromCache: got.value.fromCache });
  }
  options.onProgress?.({ phase: 'downloading', done: loaded, total: Math.max(total, loaded), unit: 'bytes', cached });
  return { ok: true, value: out };
}
