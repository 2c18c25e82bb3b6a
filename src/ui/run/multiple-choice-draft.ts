/** The New run wizard's multiple-choice mode: when it can be offered, and what stops it going on. */
import { MAX_OPTIONS, MIN_OPTIONS } from '../../multiple-choice/prompt';
import type { McJobSpec, SamplingSpec } from '../../model/run-spec';
import type { Dataset } from '../../model/rows';

export function hasMcOptions(dataset: Dataset | null): boolean {
  return !!dataset && dataset.questions.length > 0 && dataset.questions.every((q) => !!q.options && q.options.length >= MIN_OPTIONS && q.options.length <= MAX_OPTIONS);
}

export function mcProblems(mc: McJobSpec, s: Pick<SamplingSpec, 'temperature' | 'maxTokens' | 'concurrency'>): string[] {
  const out: string[] = [];
  if (!Number.isInteger(mc.runs) || mc.runs < 1 || mc.runs > 100) out.push('Runs must be a whole number from 1 to 100.');
  if (!Number.isInteger(mc.seed) || mc.seed < 0) out.push('The seed must be a whole number of 0 or more.');
  if (!Number.isInteger(mc.samples) || mc.samples < 0 || mc.samples > 1000) out.push('Sem-ECE samples per question must be a whole number from 0 (off) to 1000.');
  if (!(s.temperature >= 0 && s.temperature <= 2)) out.push('Temperature must be between 0 and 2.');
  if (!Number.isInteger(s.maxTokens) || s.maxTokens < 16) out.push('Max tokens must be a whole number of at least 16.');
  if (!Number.isInteger(s.concurrency) || s.concurrency < 1 || s.concurrency > 64) out.push('Concurrency must be a whole number from 1 to 64.');
  return out;
}
