/**
 * What a multiple-choice run will send before anything is sent: per model, one request per
 * question per run, plus (with Sem-ECE samples) the sampling requests, split by the provider's
 * most choices per request, and one greedy request per question for the logprob signal.
 */
import { capabilitiesFor } from '../../providers/capabilities';
import { costOf, priceFor, type PriceTable } from '../../model/cost';
import { buildMcMessages } from '../../multiple-choice/prompt';
import { toMcQuestions } from '../../multiple-choice/questions';
import { modelLabel, type McJobSpec, type RunSpec } from '../../model/run-spec';
import type { Estimate } from './estimate';

/** Tokens of a typical `{"answer": "B", "probability": 70}` reply. */
export const TYPICAL_MC_REPLY_TOKENS = 20;
const CHARS_PER_TOKEN = 4;

export function estimateMcRows(spec: RunSpec & { mc: McJobSpec }, prices: PriceTable): Estimate[] {
  const { questions } = toMcQuestions(spec.dataset.questions);
  const promptTokens = questions.reduce((t, q) => t + Math.ceil(buildMcMessages(q)[0].content.length / CHARS_PER_TOKEN), 0);
  const { runs, samples, logprobs } = spec.mc;
  const { maxTokens } = spec.sampling;
  return spec.models.map((model) => {
    const maxN = Math.max(1, capabilitiesFor(model.preset, model.model).maxN);
    const semRequests = samples > 0 ? Math.ceil(samples / maxN) + (logprobs ? 1 : 0) : 0;
    const replies = questions.length * (runs + (samples > 0 ? samples + (logprobs ? 1 : 0) : 0));
    const input = promptTokens * (runs + semRequests);
    const out = { typical: replies * Math.min(maxTokens, TYPICAL_MC_REPLY_TOKENS), max: replies * maxTokens };
    const price = priceFor(prices, model.preset, model.model);
    return {
      label: modelLabel(model),
      requests: questions.length * (runs + semRequests),
      samples: replies,
      inputTokens: input,
      outputTokens: out,
      cost: { typical: costOf({ input, output: out.typical }, price), max: costOf({ input, output: out.max }, price) },
    };
  });
}
