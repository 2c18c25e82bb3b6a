/**
 * Options shared by the CLI commands that call a judge model (`cluster`, `grade`): the provider
 * preset, model and base URL from the command line, the key from the environment only.
 */
import type { ChatProvider } from '../src/model/provider.ts';
import { baseUrlProblem, createProvider, getPreset, presetIds } from '../src/providers/index.ts';

export function providerFromArgs(a: { provider?: string; model?: string; 'base-url'?: string }, env: NodeJS.ProcessEnv, concurrency: number): ChatProvider {
  if (!a.provider || !a.model) throw new Error('--provider and --model are required for the judge');
  const preset = getPreset(a.provider);
  if (!preset) throw new Error(`unknown --provider ${JSON.stringify(a.provider)} (one of ${presetIds().join(', ')})`);
  const apiKey = (preset.keyEnv ? env[preset.keyEnv] : undefined) ?? env.SEMECE_API_KEY;
  if (preset.needsKey && !apiKey) throw new Error(`no API key: set ${preset.keyEnv ?? 'SEMECE_API_KEY'} (or SEMECE_API_KEY)`);
  const baseUrl = a['base-url'] ?? preset.baseUrl;
  // The providers' one check, named after the option; its message masks any password.
  const problem = baseUrlProblem(baseUrl, '--base-url');
  if (problem) throw new Error(problem);
  return createProvider({ kind: preset.kind, preset: preset.id, baseUrl, model: a.model, apiKey, concurrency });
}

export function intOption(v: string | undefined, name: string, dflt: number, min: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number ≥ ${min}, got ${JSON.stringify(v)}`);
  return n;
}
