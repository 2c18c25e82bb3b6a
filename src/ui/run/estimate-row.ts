/**
 * One row of a run's cost estimate (a model's sampling, a judge, or the total) and how a row is
 * priced: input tokens counted from the filled prompts (about 4 characters per token), output as
 * a range from a typical reply to every reply using the whole token budget.
 */
import { costOf, type Price } from '../../model/cost';

export interface Estimate {
  label: string;
  requests: number;
  samples: number;
  inputTokens: number;
  outputTokens: { typical: number; max: number };
  /** USD; null when the price table has no entry for the model. */
  cost: { typical: number | null; max: number | null };
  /**
   * Where samples per request are found out at run time: the most requests (one per sample) and
   * their input tokens; `requests` and `inputTokens` are then the fewest (n per request honoured).
   */
  upTo?: { requests: number; inputTokens: number };
  /** Every model of the row runs on a local server (a cost of 0 reads "$0 (local)"). */
  local?: boolean;
}

const CHARS_PER_TOKEN = 4;

/** Tokens of a prompt, roughly. */
export const promptTokens = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN);

/** A row with its cost range from the model's price (null: unknown); the most input tokens bound the highest cost. */
export function estimateRow(
  label: string,
  counts: Pick<Estimate, 'requests' | 'samples' | 'inputTokens' | 'outputTokens'> & Pick<Estimate, 'upTo' | 'local'>,
  price: Price | null,
): Estimate {
  const input = counts.inputTokens;
  const most = counts.upTo?.inputTokens ?? input;
  return { label, ...counts, cost: { typical: costOf({ input, output: counts.outputTokens.typical }, price), max: costOf({ input: most, output: counts.outputTokens.max }, price) } };
}
