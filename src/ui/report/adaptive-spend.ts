/**
 * What an adaptive run spent, per model, for the report's "Samples spent" panel: how many samples
 * each question drew (the histogram), how many the run saved against drawing the maximum for
 * every question, and roughly what those saved samples would have cost. Pure data from the
 * questions' sample counts, so the panel only draws and the test checks the arithmetic.
 *
 * The saving is priced at the price the run itself used for the model (recorded in the report,
 * ModelReport.price), not at whatever the table says today: a user who corrected a price before
 * the run wants the saving at that price. Older reports and reports of `semece score` record none;
 * they fall back to this app's default prices, and the panel says which it used.
 */
import { costOf, DEFAULT_PRICES, priceFor, type Price, type PriceTable } from '../../model/cost';
import type { ModelReport } from '../../model/report';

/** One bar of the histogram: questions that drew lo..hi samples (both included). */
export interface SpendBar {
  lo: number;
  hi: number;
  count: number;
}

export interface AdaptiveSpend {
  questions: number;
  /** Samples drawn, over all the questions. */
  used: number;
  /** Samples a fixed-n run at the maximum draws for the same questions. */
  fixed: number;
  saved: number;
  /** saved / fixed (0 when no question was scored). */
  savedShare: number;
  /** Questions that drew the maximum. */
  atMax: number;
  /** Mean samples per question (NaN without questions). */
  mean: number;
  bars: SpendBar[];
}

/** Bars at most: one per sample count up to this many counts, else bins of equal whole width. */
export const MAX_BARS = 50;

/**
 * The spend of questions that drew `counts` samples each, the run's maximum being `max`. A count
 * above the maximum (a report edited by hand) still lands in the last bar and counts as used.
 */
export function adaptiveSpend(counts: readonly number[], max: number): AdaptiveSpend {
  const questions = counts.length;
  let used = 0;
  let atMax = 0;
  for (const n of counts) {
    used += n;
    if (n >= max) atMax++;
  }
  const fixed = questions * max;
  const saved = Math.max(0, fixed - used);
  return { questions, used, fixed, saved, savedShare: fixed > 0 ? saved / fixed : 0, atMax, mean: questions > 0 ? used / questions : NaN, bars: spendBars(counts, max) };
}

/** Equal whole-number bins over 1..max (one per count when max ≤ MAX_BARS); empty bins kept, so the axis reads evenly. */
export function spendBars(counts: readonly number[], max: number): SpendBar[] {
  const top = Math.max(1, max, ...counts);
  const width = Math.ceil(top / MAX_BARS);
  const bars: SpendBar[] = [];
  for (let lo = 1; lo <= top; lo += width) bars.push({ lo, hi: Math.min(top, lo + width - 1), count: 0 });
  for (const n of counts) {
    const at = Math.min(bars.length - 1, Math.max(0, Math.floor((n - 1) / width)));
    bars[at].count++;
  }
  return bars;
}

/** Output tokens of a typical reply that ends with its Answer and Confidence lines (as the wizard's estimate). */
export const TYPICAL_REPLY_TOKENS = 60;
const CHARS_PER_TOKEN = 4;

/** The price the saving is counted at, and whose it is: the run's own ('run') or this app's default ('default'). */
export interface SpendPrice {
  /** null: neither the report nor the defaults have a price for the model. */
  price: Price | null;
  source: 'run' | 'default';
}

/**
 * The model's price for the saving: the one its run recorded, else the table's (the app's
 * defaults) for the report's label, preset/model.
 */
export function spendPrice(model: Pick<ModelReport, 'model' | 'provider' | 'price'>, defaults: PriceTable = DEFAULT_PRICES): SpendPrice {
  if (model.price) return { price: model.price, source: 'run' };
  const slash = model.model.indexOf('/');
  const preset = model.provider ?? (slash > 0 ? model.model.slice(0, slash) : '');
  const id = slash > 0 && model.model.slice(0, slash) === preset ? model.model.slice(slash + 1) : model.model;
  return { price: priceFor(defaults, preset, id), source: 'default' };
}

/**
 * The saved samples' cost at a price: each sample a typical reply (60 output tokens, or the token
 * limit when lower) and its prompt's input tokens (about 4 characters a token). Counting the
 * prompt per sample is an upper bound where several replies share one request. Null without a price.
 */
export function savedCost(saved: number, price: Price | null, settings: { maxTokens?: number }, promptChars: number): number | null {
  const output = Math.min(settings.maxTokens ?? TYPICAL_REPLY_TOKENS, TYPICAL_REPLY_TOKENS);
  return costOf({ input: saved * Math.ceil(promptChars / CHARS_PER_TOKEN), output: saved * output }, price);
}
