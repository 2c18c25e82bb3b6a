/**
 * Options shared by the CLI commands that call a judge model (`cluster`, `grade`): the provider
 * preset, model and base URL from the command line, the key from the environment only; and the
 * base URL check every command that sends requests uses (`sample` and `sample --batch` too).
 */
import type { ChatProvider } from '../src/model/provider.ts';
import { baseUrlProblem, createProvider, getPreset, presetIds } from '../src/providers/create-provider.ts';

export function providerFromArgs(a: { provider?: string; model?: string; 'base-url'?: string }, env: NodeJS.ProcessEnv, concurrency: number): ChatProvider {
  if (!a.provider || !a.model) throw new Error('--provider and --model are required for the judge');
  const preset = getPreset(a.provider);
  if (!preset) throw new Error(`unknown --provider ${JSON.stringify(a.provider)} (one of ${presetIds().join(', ')})`);
  const apiKey = (preset.keyEnv ? env[preset.keyEnv] : undefined) ?? env.SEMECE_API_KEY;
  if (preset.needsKey && !apiKey) throw new Error(`no API key: set ${preset.keyEnv ?? 'SEMECE_API_KEY'} (or SEMECE_API_KEY)`);
  const baseUrl = baseUrlOption(a['base-url'], preset);
  return createProvider({ kind: preset.kind, preset: preset.id, baseUrl, model: a.model, apiKey, concurrency });
}

/**
 * --base-url, or the preset's own address, through the providers' one base URL check (its
 * message masks a password): every command that sends requests reads its base URL here.
 */
export function baseUrlOption(given: string | undefined, preset: { id: string; baseUrl: string }): string {
  const url = given ?? preset.baseUrl;
  if (!url) throw new Error(`--base-url is required for --provider ${preset.id}, which has no default address`);
  const problem = baseUrlProblem(url, '--base-url');
  if (problem) throw new Error(problem);
  return url;
}

export function intOption(v: string | undefined, name: string, dflt: number, min: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number ≥ ${min}, got ${JSON.stringify(v)}`);
  return n;
}
