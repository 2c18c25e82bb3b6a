/**
 * Why a run has no logprob signal, in words for the report: the provider cannot give token
 * log-probabilities, the model refused them, or they were asked for and did not come back.
 */
import { capabilitiesFor } from '../providers/capabilities';
import { findWireFormat } from '../providers/wire-formats';
import type { ProviderConfig, Reply } from '../model/provider';

/** Hosts of a format that can give them but do not; a format that cannot says so itself (its `noLogprobs`). */
const BY_PRESET: Record<string, string> = {
  groq: 'Groq rejects requests that ask for log-probabilities.',
  mistral: "Mistral's chat API has no log-probabilities parameter.",
  ollama: "Ollama's OpenAI-compatible endpoint returns no log-probabilities.",
};

/**
 * null when every reply carries logprobs; otherwise the reason. `notes` are the provider's run-time
 * findings (SamplingProvider.notes()), which say when a model refused logprobs mid-run.
 */
export function logprobAbsence(config: Pick<ProviderConfig, 'kind' | 'preset' | 'model'>, replies: readonly Pick<Reply, 'logprobs'>[], notes: readonly string[] = []): string | null {
  const missing = replies.filter((r) => !r.logprobs || r.logprobs.length === 0).length;
  if (replies.length > 0 && missing === 0) return null;
  const caps = capabilitiesFor(config.preset, config.model);
  if (!caps.logprobs) {
    if (BY_PRESET[config.preset]) return BY_PRESET[config.preset];
    const format = findWireFormat(config.kind)?.noLogprobs;
    if (format) return format;
    if (caps.rejectsSampling) return `${config.model} is a reasoning model; these reject log-probabilities.`;
    return `The ${config.preset} preset is not known to return log-probabilities, so they are not asked for.`;
  }
  const refused = notes.find((n) => /logprob/i.test(n));
  if (refused) return `The model refused log-probabilities: ${refused}`;
  if (replies.length === 0) return 'No replies came back.';
  return missing === replies.length
    ? 'Log-probabilities were asked for but the provider returned none.'
    : `Log-probabilities were asked for but ${missing} of ${replies.length} replies came back without them.`;
}
