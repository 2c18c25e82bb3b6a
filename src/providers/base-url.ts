/**
 * The one check of a provider's base URL, used wherever one enters: the provider itself
 * (createProvider), the run worker before it stores a run, the batch services and the CLI's
 * --base-url. A base URL must be an http(s) URL without credentials in it: browsers refuse to
 * send a request to `https://user:pass@host/v1` at all (fetch throws a TypeError that used to be
 * retried as a network failure for most of a minute), and a URL is stored with the run, its
 * cache keys and its errors, where a password has no place. The key goes in the key field (or
 * the key's environment variable), which is sent as a header and never stored.
 *
 * Messages never echo the URL's credentials: they show the URL with them masked.
 */
import type { ModelSpec, RunSpec } from '../model/run-spec.ts';
import { clusteringApiModel } from '../model/clustering-methods.ts';
import { getPreset, modelOnProvider } from './presets.ts';

/** The URL as a message may show it: any user name and password replaced by ***. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) {
      parsed.username = '***';
      parsed.password = '';
    }
    return parsed.href;
  } catch {
    // Not a URL: mask anything between a scheme and an @, then show no more than a short start.
    const masked = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
    return masked.length > 80 ? `${masked.slice(0, 80)}…` : masked;
  }
}

/** What is wrong with a base URL, in words (naming it masked), or null when it can be used. */
export function baseUrlProblem(url: string, name = 'The base URL'): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return `${name} is not a valid URL (${JSON.stringify(redactedUrl(url))}): expected e.g. https://api.openai.com/v1.`;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return `${name} must start with http:// or https:// (got ${parsed.protocol}//…).`;
  }
  if (parsed.username || parsed.password) {
    return (
      `${name} contains ${parsed.password ? 'a user name and password' : 'a user name'} (${redactedUrl(url)}). ` +
      'Remove them from the URL and put the key in the API key field (or its environment variable): ' +
      'browsers refuse such URLs, and a URL is stored with the run.'
    );
  }
  return null;
}

/**
 * The first problem among the base URLs a run would send to (each model's, and each judge's of a
 * Sem-ECE run), naming whose it is; null when all can be used.
 */
export function runBaseUrlProblem(spec: Pick<RunSpec, 'models' | 'clustering' | 'grading' | 'mc'>): string | null {
  // Named as people read them ("my-model on the OpenAI-compatible server"), never by a preset id.
  const name = (m: Pick<ModelSpec, 'preset' | 'model'>) => modelOnProvider(m.preset, m.model);
  const named: [string, Pick<ModelSpec, 'preset' | 'model' | 'baseUrl'>][] = spec.models.map((m) => [name(m), m]);
  const clusteringJudge = spec.mc ? undefined : clusteringApiModel(spec.clustering);
  if (clusteringJudge) named.push([`the clustering judge ${name(clusteringJudge)}`, clusteringJudge]);
  if (!spec.mc && spec.grading.method === 'judge') named.push([`the grading judge ${name(spec.grading.judge)}`, spec.grading.judge]);
  for (const [name, model] of named) {
    // A model run in the page has no address to check.
    if (getPreset(model.preset)?.kind === 'in-browser') continue;
    const problem = baseUrlProblem(model.baseUrl || getPreset(model.preset)?.baseUrl || '', `The base URL of ${name}`);
    if (problem) return problem;
  }
  return null;
}
