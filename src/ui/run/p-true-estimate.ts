/**
 * The p(True) row of a run's cost estimate (pipeline/p-true.ts): per model, one request per
 * question where the provider returns logprobs (the verdict is read from them), else `samples`
 * replies per question in requests of up to the provider's n. A server the table does not know
 * is counted from the first (logprobs returned) up to the second.
 */
import { capabilitiesFor } from '../../providers/capabilities';
import { getPreset, modelOnProvider } from '../../providers/presets';
import { priceFor, type PriceTable } from '../../model/cost';
import type { ModelSpec, RunSpec } from '../../model/run-spec';
import { P_TRUE_SETTINGS } from '../../pipeline/p-true';
import { pTrueMessages } from '../../pipeline/p-true-read';
import { estimateRow, promptTokens, type Estimate } from './estimate-row';

/** Characters of a typical short answer (the proposed one, and each brainstormed one). */
const TYPICAL_ANSWER_CHARS = 20;
/** Distinct other answers a question typically has to show as brainstormed ideas. */
const TYPICAL_IDEAS = 5;
/** Tokens of a typical verdict reply ("True"). */
const TYPICAL_VERDICT_TOKENS = 2;

export function pTrueEstimate(spec: RunSpec, model: ModelSpec, prices: PriceTable): Estimate | undefined {
  const p = spec.sampling.pTrue;
  if (!p || spec.mc) return undefined;
  const caps = capabilitiesFor(model.preset, model.model);
  const answer = 'x'.repeat(TYPICAL_ANSWER_CHARS);
  const ideas = p.brainstorm ? Array.from({ length: Math.min(TYPICAL_IDEAS, Math.max(0, spec.sampling.n - 1)) }, () => answer) : undefined;
  let prompts = 0;
  for (const q of spec.dataset.questions) prompts += promptTokens(pTrueMessages(q.question, answer, ideas)[0].content);
  const questions = spec.dataset.questions.length;
  // Without logprobs: the first request (n = 1), then the other replies, up to n per request.
  const sampledRequests = 1 + Math.ceil((p.samples - 1) / Math.max(1, caps.maxN));
  const withLogprobs = caps.logprobs && !caps.unknown;
  const requestsPer = withLogprobs ? 1 : caps.unknown ? 1 : sampledRequests;
  const repliesPer = withLogprobs ? 1 : caps.unknown ? 1 : p.samples;
  const most = { requests: sampledRequests, replies: p.samples };
  return estimateRow(
    `p(True) ${modelOnProvider(model.preset, model.model)}`,
    {
      requests: questions * requestsPer,
      samples: 0,
      inputTokens: prompts * requestsPer,
      outputTokens: { typical: questions * repliesPer * TYPICAL_VERDICT_TOKENS, max: questions * most.replies * P_TRUE_SETTINGS.maxTokens },
      ...(caps.unknown && most.requests > requestsPer ? { upTo: { requests: questions * most.requests, inputTokens: prompts * most.requests } } : {}),
      local: getPreset(model.preset)?.local === true,
    },
    priceFor(prices, model.preset, model.model),
  );
}
