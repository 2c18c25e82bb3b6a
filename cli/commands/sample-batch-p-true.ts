/**
 * `semece sample --batch … --p-true`: p(True) through the provider's batch service, once every
 * sample is stored (p(True) asks about each question's most frequent answer). Its requests go out
 * as batches of their own (src/batch/p-true-batches.ts), their replies are stored in OUT.cache.jsonl
 * under the keys `semece sample --p-true` uses (a direct rerun and a batch rerun share them, and a
 * rerun sends nothing), and each row's p_true is read from them by the direct path's own reading
 * (pipeline/p-true.ts). A question takes one round (reply 0 with logprobs) or two (the sampled
 * verdicts where no logprobs came back): --batch write/read work a round at a time, submit loops.
 */
import type { SampledRow } from '../../src/model/rows.ts';
import type { SampleCache } from '../../src/model/sample-cache.ts';
import type { PTrueSpec } from '../../src/model/run-spec.ts';
import { costOf, DEFAULT_PRICES, priceFor } from '../../src/model/cost.ts';
import { addPTrue, type PTrueSummary } from '../../src/pipeline/p-true.ts';
import type { BatchModel } from '../../src/batch/request-lines.ts';

/** Rows whose p(True) is read at once (the rows are written a chunk at a time). */
const ROWS_CHUNK = 500;

/** What p(True) came to, for the command's summary line. */
export interface PTrueBatchSummary {
  methods: PTrueSummary['methods'];
  /** Requests answered by this command's batches, and their tokens. */
  requests: number;
  tokens: { input: number; output: number };
  /** At the price table's price: the table holds no batch price, so this is what the same requests cost interactively (the batch services charge about half). */
  cost: number | null;
  priced: 'interactive price (the price table has no batch price)';
}

export function pTrueSpent(model: BatchModel, usage: { requests: number; inputTokens: number; outputTokens: number }): Omit<PTrueBatchSummary, 'methods'> {
  const tokens = { input: usage.inputTokens, output: usage.outputTokens };
  return { requests: usage.requests, tokens, cost: costOf(tokens, priceFor(DEFAULT_PRICES, model.preset, model.model)), priced: 'interactive price (the price table has no batch price)' };
}

/** The rows with p_true and p_true_method read from the stored replies (nothing is sent), a chunk at a time; `methods` counts how each was read. */
export async function* withStoredPTrue(rowLines: AsyncIterable<string>, model: BatchModel, spec: PTrueSpec, cache: SampleCache, methods: PTrueSummary['methods']): AsyncGenerator<string> {
  let chunk: SampledRow[] = [];
  const flush = async function* () {
    const s = await addPTrue(chunk, { provider: { config: model }, cache, spec, cachedOnly: true });
    for (const k of ['logprobs', 'sampled', 'none'] as const) methods[k] += s.methods[k];
    for (const r of chunk) yield JSON.stringify(r);
    chunk = [];
  };
  for await (const line of rowLines) {
    chunk.push(JSON.parse(line) as SampledRow);
    if (chunk.length >= ROWS_CHUNK) yield* flush();
  }
  if (chunk.length > 0) yield* flush();
}
