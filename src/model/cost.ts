/**
 * Money and time: token counts → cost from a price table the user can edit, and the ETA of a run.
 * Prices are USD per million tokens. The defaults are a convenience, not a source of truth:
 * providers change prices, so the UI lets the user correct them; a model with no price shows no cost.
 */

export interface Price {
  /** USD per 1M input tokens. */
  input: number;
  /** USD per 1M output tokens. */
  output: number;
}

/** Keys are `preset/model-prefix`; the longest prefix that matches the model wins. */
export type PriceTable = Record<string, Price>;

export const DEFAULT_PRICES: PriceTable = {
  'openai/gpt-4o-mini': { input: 0.15, output: 0.6 },
  'openai/gpt-4o': { input: 2.5, output: 10 },
  'openai/gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'openai/gpt-4.1': { input: 2, output: 8 },
  'anthropic/claude-3-5-haiku': { input: 0.8, output: 4 },
  'anthropic/claude-sonnet-4': { input: 3, output: 15 },
  'gemini/gemini-2.5-flash': { input: 0.3, output: 2.5 },
  'gemini/gemini-2.5-pro': { input: 1.25, output: 10 },
  // Local servers cost nothing per token.
  'ollama/': { input: 0, output: 0 },
  'lmstudio/': { input: 0, output: 0 },
  'vllm/': { input: 0, output: 0 },
  'llamacpp/': { input: 0, output: 0 },
  // Neither does a model run in the browser (providers/in-browser/).
  'in-browser/': { input: 0, output: 0 },
};

export function priceFor(table: PriceTable, preset: string, model: string): Price | null {
  let best: { len: number; price: Price } | null = null;
  for (const [key, price] of Object.entries(table)) {
    const slash = key.indexOf('/');
    if (slash < 0 || key.slice(0, slash) !== preset) continue;
    const prefix = key.slice(slash + 1);
    if (model.startsWith(prefix) && (!best || prefix.length > best.len)) best = { len: prefix.length, price };
  }
  return best ? best.price : null;
}

export function costOf(tokens: { input: number; output: number }, price: Price | null): number | null {
  if (!price) return null;
  return (tokens.input * price.input + tokens.output * price.output) / 1e6;
}

/** Checks an edited table: every entry `preset/model` with two finite, non-negative prices. */
export function validatePriceTable(table: unknown): { ok: true; value: PriceTable } | { ok: false; message: string } {
  if (typeof table !== 'object' || table === null || Array.isArray(table)) return { ok: false, message: 'The price table must be an object.' };
  for (const [key, p] of Object.entries(table as Record<string, unknown>)) {
    if (!key.includes('/')) return { ok: false, message: `Price key "${key}" must look like preset/model.` };
    const price = p as Partial<Price> | null;
    for (const field of ['input', 'output'] as const) {
      const v = price?.[field];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
        return { ok: false, message: `Price "${key}" needs a non-negative number for ${field} (USD per million tokens).` };
      }
    }
  }
  return { ok: true, value: table as PriceTable };
}

/**
 * Time left at the rate achieved so far in this run (samples already cached do not count toward the
 * rate, since they took no time). null until something has been fetched.
 */
export function etaMs(fetched: number, remaining: number, elapsedMs: number): number | null {
  if (remaining <= 0) return 0;
  if (fetched <= 0 || elapsedMs <= 0) return null;
  return Math.round((remaining * elapsedMs) / fetched);
}
