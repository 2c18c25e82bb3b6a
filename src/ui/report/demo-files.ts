/**
 * Fetching the built-in demo files (a manifest and the files it lists). A module with no heavy
 * imports, so the router can start the fetch while the first page's code is still loading.
 */
import type { DemoManifest } from '../../demo/manifest';
import type { Result, StageError } from '../../model/rows';

export interface DemoFiles {
  manifest: DemoManifest;
  /** File name (as the manifest lists it) → text. */
  texts: Record<string, string>;
}

function fail(message: string, where?: string): { ok: false; error: StageError } {
  return { ok: false, error: { kind: 'demo', message, ...(where ? { where } : {}) } };
}

/** Fetches the manifest and every file it lists from `base` (a folder URL ending in '/'). */
export async function fetchDemoFiles(base: string | URL, fetchImpl: typeof fetch = fetch): Promise<Result<DemoFiles>> {
  const get = async (name: string): Promise<Result<string>> => {
    const url = new URL(name, base);
    try {
      const res = await fetchImpl(url);
      if (!res.ok) return fail(`HTTP ${res.status} for the demo file ${name}`, url.href);
      return { ok: true, value: await res.text() };
    } catch (err) {
      return fail(`The demo file ${name} could not be fetched: ${err instanceof Error ? err.message : String(err)}`, url.href);
    }
  };
  const manifestText = await get('manifest.json');
  if (!manifestText.ok) return manifestText;
  let manifest: DemoManifest;
  try {
    manifest = JSON.parse(manifestText.value) as DemoManifest;
  } catch (err) {
    return fail(`The demo manifest is not valid JSON: ${(err as Error).message}`, 'manifest.json');
  }
  if (!Array.isArray(manifest.models) || manifest.models.length === 0) return fail('The demo manifest lists no models.', 'manifest.json');
  const names = manifest.models.flatMap((m) => [m.clustered, m.graded]);
  const fetched = await Promise.all(names.map(get));
  const texts: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const r = fetched[i];
    if (!r.ok) return r;
    texts[names[i]] = r.value;
  }
  return { ok: true, value: { manifest, texts } };
}


let prefetched: Promise<Result<DemoFiles>> | undefined;

/**
 * The demo files from `demo/` beside the app, fetched once per page: the router starts this
 * while the home page's code loads, and the page picks up the same promise. A failed fetch is
 * forgotten, so the next visit tries again.
 */
export function prefetchDemoFiles(): Promise<Result<DemoFiles>> {
  if (!prefetched) {
    const pending = fetchDemoFiles(new URL('demo/', document.baseURI));
    prefetched = pending;
    void pending.then((r) => {
      if (!r.ok && prefetched === pending) prefetched = undefined;
    });
  }
  return prefetched;
}
