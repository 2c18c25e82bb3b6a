/**
 * The keys samples are stored under (`<question's key base>#<index>`, model/sample-cache.ts) and
 * reading a run's stored samples back by them: the sampling loop, the sample stage, a report's
 * question read back and the batch ingest all key samples this one way.
 */
import type { GenerationSettings, SamplingProvider } from '../model/provider.ts';
import { fillPrompt, DEFAULT_GENERATION_PROMPT } from './prompts.ts';
import { type SampleCache, keyAt, readQuestions, sampleKeyBase } from '../model/sample-cache.ts';
import type { Question, Sample } from '../model/rows.ts';
import type { SamplingSpec } from '../model/run-spec.ts';

/**
 * The generation settings a run's samples are asked and keyed with: the one place they are made
 * from its sampling settings, so the sample stage, the batch request set and the batch judge's
 * read of the samples key them alike. Logprobs only where asked: a run without them keys its
 * samples as it always has.
 */
export function samplingSettingsOf(s: Pick<SamplingSpec, 'temperature' | 'topP' | 'maxTokens' | 'logprobs'>): GenerationSettings {
  return { temperature: s.temperature, topP: s.topP, maxTokens: s.maxTokens, ...(s.logprobs ? { logprobs: true } : {}) };
}

/** Questions hashed at once (one digest each). */
export const KEY_PASS_CHUNK = 256;

/** The key base of one question (its sample keys are `<base>#<index>`): one digest. */
export function questionKeyBase(provider: Pick<SamplingProvider, 'config'>, settings: GenerationSettings, promptTemplate: string, q: Question): Promise<string> {
  const prompt = fillPrompt(promptTemplate, q);
  const { preset, baseUrl, model } = provider.config;
  return sampleKeyBase({ preset, baseUrl, model, prompt, settings, questionId: q.id, question: q.question });
}

/** The n keys of one question, in index order. */
export async function questionKeys(
  provider: Pick<SamplingProvider, 'config'>,
  settings: GenerationSettings,
  promptTemplate: string,
  q: Question,
  n: number,
): Promise<string[]> {
  const base = await questionKeyBase(provider, settings, promptTemplate, q);
  return Array.from({ length: n }, (_, i) => keyAt(base, i));
}

/**
 * Stored samples of each question (undefined where one is missing), e.g. to write the authors' rows.
 * `keyBases` (from runSampling) spares the digests; each question is one range read where the cache has one.
 */
export async function readSamples(opts: {
  questions: Question[];
  provider: Pick<SamplingProvider, 'config'>;
  settings: GenerationSettings;
  n: number;
  promptTemplate?: string;
  cache: SampleCache;
  keyBases?: Map<string, string>;
}): Promise<(Sample | undefined)[][]> {
  const template = opts.promptTemplate ?? DEFAULT_GENERATION_PROMPT;
  const out: (Sample | undefined)[][] = [];
  for (let from = 0; from < opts.questions.length; from += KEY_PASS_CHUNK) {
    const chunk = opts.questions.slice(from, from + KEY_PASS_CHUNK);
    const bases = await Promise.all(chunk.map(async (q) => opts.keyBases?.get(q.id) ?? questionKeyBase(opts.provider, opts.settings, template, q)));
    out.push(...(await readQuestions(opts.cache, bases, opts.n)));
  }
  return out;
}
