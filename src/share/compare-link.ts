/**
 * Share links of a comparison or a leaderboard (issue 28): the computed result (not the reports
 * behind it) deflated and base64url-encoded into the fragment `#/shared-compare/<payload>`, as a
 * report's link is (codec.ts); the fragment never reaches a server.
 *
 * Decoding trusts nothing, as codec.ts's does: the payload's length, the inflated size, then
 * every field by a zod schema with bounds on every string and list, so a crafted link is refused
 * with a message; what it holds is only ever shown as text.
 */
import { deflateSync, strFromU8, strToU8 } from 'fflate';
import { z } from 'zod';
import { METRICS, type MetricCliKey } from '../model/metrics';
import type { Result } from '../model/rows';
import { SIGNAL_NAMES, type SignalName } from '../model/signals';
import type { ReliabilityBin } from '../core/types';
import type { Leaderboard } from '../pipeline/leaderboard';
import { COMPARISON_CORRECTION, COMPARISON_METHOD, ECE_COMPARISON_METHOD, type ReportComparison } from '../pipeline/report-comparison';
import { base64urlDecode, base64urlEncode, formatKB, inflateLimited, MAX_SHARE_PAYLOAD_CHARS, MAX_SHARE_URL_LENGTH } from './codec';

export const COMPARE_SHARE_ROUTE = '#/shared-compare/';
/** A comparison's JSON is small (names, numbers, the questions not shared): 4 MB bounds a deflate bomb. */
export const MAX_COMPARE_JSON_BYTES = 4 * 1024 * 1024;

/**
 * What the overlaid charts of a comparison need of one model, small enough for a link: its
 * reliability bins and a thinned risk–coverage curve per signal, and its Sem1 − Sem2 gap
 * ([difference, lo, hi], as the report stores it). Built by ui/compare/chart-models.ts.
 */
export interface CompareChartModel {
  name: string;
  questions: number;
  gap: [number, number, number] | null;
  signals: Partial<Record<SignalName, { bins: ReliabilityBin[]; points: { k: number; coverage: number; risk: number }[] }>>;
}

export type SharedCompare =
  | { kind: 'comparison'; value: ReportComparison; charts?: CompareChartModel[] }
  | { kind: 'leaderboard'; value: Leaderboard };

// JSON writes NaN (an undefined statistic) as null; it comes back as NaN.
const num = z.number().nullable().transform((v) => v ?? NaN);
const int = z.number().int().min(0).max(1e9);
const text = (max = 500) => z.string().max(max);
const signal = z.enum(SIGNAL_NAMES);
const difference = z.object({ difference: num, interval: z.tuple([num, num]), p: num, p_adjusted: num });
const bySignal = z.partialRecord(signal, difference);
const metrics = z.object({
  accuracy: difference,
  ...Object.fromEntries(METRICS.map((m) => [m.cli, bySignal.optional()])) as Record<MetricCliKey, z.ZodOptional<typeof bySignal>>,
});
const questionRef = z.object({ id: text(), question: text(20_000) });
const pair = z.object({
  a: text(),
  b: text(),
  shared: int,
  only_a: z.array(questionRef).max(50_000),
  only_b: z.array(questionRef).max(50_000),
  duplicates: z.object({ a: int, b: int }),
  settings_differ: z.array(z.object({ setting: text(40), a: text(), b: text() })).max(20),
  warnings: z.array(text(2000)).max(10),
  signals: z.array(signal).max(SIGNAL_NAMES.length),
  signals_skipped: z.array(signal).max(SIGNAL_NAMES.length),
  metrics,
});
const comparison = z.object({
  pairs: z.array(pair).min(1).max(500),
  method: z.literal(COMPARISON_METHOD),
  ece_method: z.literal(ECE_COMPARISON_METHOD).optional(),
  correction: z.literal(COMPARISON_CORRECTION),
  family: text(),
  family_size: z.record(text(40), int),
  B: int,
  seed: int,
  level: z.number().min(0).max(1),
});
const interval = z.tuple([num, num]);
const leaderboard = z.object({
  signal,
  entries: z.array(z.object({
    name: text(), questions: int, ece: num, ece_interval: interval.nullable(), accuracy: num, brier: num, auroc: num, p_first: num, rank: int, rank_interval: interval,
  })).min(1).max(1000),
  skipped: z.array(z.object({ name: text(), reason: text() })).max(1000),
  paired: z.boolean(),
  B: int,
  seed: int,
});
const bin = z.object({ lo: num, hi: num, count: int, meanConfidence: num, accuracy: num });
const chartModel = z.object({
  name: text(),
  questions: int,
  gap: z.tuple([num, num, num]).nullable(),
  signals: z.partialRecord(signal, z.object({
    bins: z.array(bin).max(1000),
    points: z.array(z.object({ k: int, coverage: num, risk: num })).max(2000),
  })),
});
const envelope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('comparison'), value: comparison, charts: z.array(chartModel).max(50).optional() }),
  z.object({ kind: z.literal('leaderboard'), value: leaderboard }),
]);

const linkOf = (shared: SharedCompare, base: string) =>
  base.split('#')[0] + COMPARE_SHARE_ROUTE + base64urlEncode(deflateSync(strToU8(JSON.stringify(shared)), { level: 9 }));

/**
 * The link, or why there is none (too long: the HTML page is the way to send it). A comparison's
 * charts go in when they fit; when only the numbers fit, the link carries those and says so
 * (`charts: false`).
 */
export function makeCompareLink(shared: SharedCompare, base: string, limit = MAX_SHARE_URL_LENGTH): Result<{ url: string; length: number; charts: boolean }> {
  const withCharts = shared.kind === 'comparison' && (shared.charts?.length ?? 0) > 0;
  let url = linkOf(shared, base);
  if (withCharts && url.length > limit) {
    const numbersOnly = linkOf({ kind: 'comparison', value: shared.value }, base);
    if (numbersOnly.length <= limit) return { ok: true, value: { url: numbersOnly, length: numbersOnly.length, charts: false } };
    url = numbersOnly;
  }
  if (url.length <= limit) return { ok: true, value: { url, length: url.length, charts: withCharts } };
  const what = shared.kind === 'comparison' ? 'comparison' : 'leaderboard';
  return { ok: false, error: { kind: 'share-too-large', message: `This ${what} is too large for a link (${formatKB(url.length)}; a link may be at most ${formatKB(limit)}). Download its HTML page and send the file instead.` } };
}

function refuse(message: string): Result<never> {
  return { ok: false, error: { kind: 'share-link', message } };
}

/** Reads a payload (the part after `#/shared-compare/`), checked field by field. */
export function decodeCompareLink(payload: string): Result<SharedCompare> {
  if (payload.length === 0) return refuse('The link is empty: it holds no comparison.');
  if (payload.length > MAX_SHARE_PAYLOAD_CHARS) return refuse(`The link is too long (${formatKB(payload.length)}).`);
  const bytes = base64urlDecode(payload);
  if (!bytes) return refuse('The link is damaged: it contains characters a link made by this app never has. Was it cut or edited?');
  const inflated = inflateLimited(bytes, MAX_COMPARE_JSON_BYTES);
  if (typeof inflated === 'string') return refuse(`The link cannot be opened: ${inflated.replace('the report in the link', 'its content')}. Was it cut short?`);
  let raw: unknown;
  try {
    raw = JSON.parse(strFromU8(inflated));
  } catch {
    return refuse('The link cannot be opened: its content is not a comparison. Was it cut short?');
  }
  const parsed = envelope.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refuse(`The link's content is not a comparison or leaderboard this app made: ${issue.message} at ${issue.path.join('.') || 'the top'}.`);
  }
  return { ok: true, value: parsed.data as SharedCompare };
}
