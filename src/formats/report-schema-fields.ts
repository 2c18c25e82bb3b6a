/**
 * The building blocks of the report schema (report-schema.ts): zod fields that range-check a
 * value and word the message a user meets ("settings.bins: expected a whole number from 1 to
 * 1,000, got 1000000000"), so every field of the document is checked the same way.
 */
import { z } from 'zod';
import { SIGNAL_NAMES, type SignalName } from '../model/signals';
import { MAX_SAMPLES_PER_QUESTION, MAX_SEED, MAX_SEM2_R } from '../model/scoring-limits';
import { MAX_STRING_LENGTH } from './report-limits';

/** A value as a message shows it: numbers as written, short strings quoted, the rest by kind. */
export function shown(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return `a list of ${v.length}`;
  return typeof v === 'object' ? 'an object' : typeof v;
}

/** Zod error text: "missing" when the field is absent, else what was expected and what was there. */
export const expect = (what: string) => (iss: { input?: unknown }) => {
  if (iss.input === undefined) return `missing (expected ${what})`;
  // JSON cannot write Infinity, so 1e999 in a file is a number no statistic can be.
  if (typeof iss.input === 'number' && !Number.isFinite(iss.input)) return `expected a finite number, got ${iss.input}`;
  return `expected ${what}, got ${shown(iss.input)}`;
};

/** A list of at most `max` items, its message naming the length found. */
export const list = <T extends z.ZodType>(item: T, max: number) =>
  z.array(item, { error: expect('a list') }).max(max, { error: (iss) => `expected at most ${max.toLocaleString('en')} items, got ${shown(iss.input)}` });

export const text = (what = 'a string') =>
  z
    .string({ error: expect(what) })
    .max(MAX_STRING_LENGTH, { error: `text longer than ${MAX_STRING_LENGTH.toLocaleString('en')} characters` });

export const finite = () => z.number({ error: expect('a finite number') });
/** A number in [lo, hi]; `slack` admits the last-bit rounding of a statistic summed over many rows. */
export const within = (lo: number, hi: number, slack = 0) => {
  const what = `a number in [${lo},${hi}]`;
  return z
    .number({ error: expect(what) })
    .min(lo - slack, { error: expect(what) })
    .max(hi + slack, { error: expect(what) });
};
export const unit = () => within(0, 1);
/** A whole number in [min, max] (max: a safe integer when not given). */
export const count = (min = 0, max?: number) => {
  const what = max === undefined ? `a whole number ≥ ${min}` : `a whole number from ${min} to ${max.toLocaleString('en')}`;
  return z
    .number({ error: expect(what) })
    .int({ error: expect(what) })
    .min(min, { error: expect(what) })
    .max(max ?? Number.MAX_SAFE_INTEGER, { error: expect(what) });
};
export const seed = () => count(0, MAX_SEED);

/** Rounding a statistic over a million rows may land a few ulps past its bound; no more than this. */
export const STAT_SLACK = 1e-9;
/**
 * A statistic the core may leave undefined (null in JSON, NaN in memory), within its
 * mathematical range [lo, hi].
 */
export const stat = (lo: number, hi: number) =>
  z
    .union([within(lo, hi, STAT_SLACK), z.null()], { error: expect(`a number in [${lo},${hi}] or null`) })
    .transform((v) => (v === null ? Number.NaN : v));
/** A probability, accuracy or calibration error: [0,1]. */
export const rate = () => stat(0, 1);
export const unitOrNaN = () =>
  z.union([unit(), z.null()], { error: expect('a number in [0,1] or null') }).transform((v) => (v === null ? Number.NaN : v));

/** An object keyed by signal name, each key optional; unknown keys are dropped. */
export function bySignal<T extends z.ZodType>(value: T) {
  return z.object(Object.fromEntries(SIGNAL_NAMES.map((s) => [s, value.optional()])) as Record<SignalName, z.ZodOptional<T>>);
}

export const signalName = z.enum(SIGNAL_NAMES, { error: `expected one of ${SIGNAL_NAMES.join(', ')}` });

/** [point, low, high] of a statistic within [lo, hi]. */
export const interval = (lo: number, hi: number) => z.tuple([stat(lo, hi), stat(lo, hi), stat(lo, hi)], { error: expect('[point, low, high]') });
export const rateInterval = interval(0, 1);
export const differenceInterval = interval(-1, 1);

/** Sem2's settings (R splits, their seed, the selection half or count): one schema for a run's scoring spec and a report's settings. */
export const sem2SettingsSchema = z.object({
  R: count(1, MAX_SEM2_R),
  seed: seed(),
  selection: z.union([z.literal('half'), count(1, MAX_SAMPLES_PER_QUESTION)], {
    error: expect(`'half' or a whole number from 1 to ${MAX_SAMPLES_PER_QUESTION.toLocaleString('en')}`),
  }),
});
