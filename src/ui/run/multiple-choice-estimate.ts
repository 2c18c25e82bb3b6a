/**
 * What a multiple-choice run will send before anything is sent: per model, one request per
 * question per run, plus (with Sem-ECE samples) the sampling requests, split by the provider's
 * most choices per request, and one greedy request per question for the logprob signal.
 */
import { capabilitiesFor } from '../../providers/capabilities';
import { getPreset, modelOnProvider } from '../../providers/presets';
import { priceFor, type PriceTable } from '../../model/cost';
import { buildMcMessages } from '../../multiple-choice/prompt';
import { toMcQuestions } from '../../multiple-choice/mc-questions';
import type { McJobSpec, RunSpec } from '../../model/run-spec';
import { estimateRow, promptTokens, type Estimate } from './estimate-row';

/** Tokens of a typical `{"answer": "B", "probability": 70}` reply. */
export const TYPICAL_MC_REPLY_TOKENS = 20;

export function estimateMultipleChoiceRows(spec: RunSpec & { mc: McJobSpec }, prices: PriceTable): Estimate[] {
  const { questions } = toMcQuestions(spec.dataset.questions);
  const prompts = questions.reduce((t, q) => t + promptTokens(buildMcMessages(q)[0].content), 0);
  const { runs, samples, logprobs } = spec.mc;
  const { maxTokens } = spec.sampling;
  return spec.models.map((model) => {
    const caps = capabilitiesFor(model.preset, model.model);
    const maxN = Math.max(1, caps.maxN);
    const semRequests = samples > 0 ? Math.ceil(samples / maxN) + (logprobs ? 1 : 0) : 0;
    const replies = questions.length * (runs + (samples > 0 ? samples + (logprobs ? 1 : 0) : 0));
    const out = { typical: replies * Math.min(maxTokens, TYPICAL_MC_REPLY_TOKENS), max: replies * maxTokens };
    // A server the table does not know: its samples per request are probed, so up to one request per sample.
    const mostSem = samples > 0 ? samples + (logprobs ? 1 : 0) : 0;
    const upTo = caps.unknown && mostSem > semRequests ? { requests: questions.length * (runs + mostSem), inputTokens: prompts * (runs + mostSem) } : undefined;
    return estimateRow(
      modelOnProvider(model.preset, model.model),
      { requests: questions.length * (runs + semRequests), samples: replies, inputTokens: prompts * (runs + semRequests), outputTokens: out, ...(upTo ? { upTo } : {}), local: getPreset(model.preset)?.local === true },
      priceFor(prices, model.preset, model.model),
    );
  });
}
