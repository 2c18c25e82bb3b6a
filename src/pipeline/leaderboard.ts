/**
 * The leaderboard (issue 28): many entries (each model of each report) ranked by one signal's
 * paper ECE, with each entry's own ECE interval (the report's `eceInference`, core/ece-inference.ts,
 * computed here when an older report lacks it), its accuracy, Brier score and AUROC, and how sure
 * the ranking is: over B bootstrap replicates, the share in which each entry has the lowest ECE
 * (`p_first`, ties share the credit) and the central 95% of its rank (`rank_interval`).
 *
 * Replicates: when every entry has the same questions (by alignment key, report-alignment.ts),
 * one index draw per replicate serves every entry (paired, as the questions are common); otherwise
 * each entry resamples its own questions, one after the other from the same default_rng(seed)
 * stream (independent samples). `paired` says which. The ranks are of the plug-in ECE, which
 * noise biases upward by an amount that depends on the number of questions and how the
 * confidences fall into bins, so an entry with few questions is ranked down a little by noise
 * alone (docs/STATISTICS.md, "Comparing reports").
 */
import { eceEqualWidth } from '../core/ece';
import { eceInference } from '../core/ece-inference';
import { percentiles } from '../core/percentile';
import { defaultRng } from '../core/rng';
import { eceIntervalOf } from '../formats/headline-table';
import { SCORING_DEFAULTS } from '../model/run-spec';
import { signalValue, type SignalName } from '../model/signals';
import { questionKey, type CompareEntry } from './report-alignment';

export interface LeaderboardEntry {
  name: string;
  questions: number;
  /** The paper's plug-in ECE of the chosen signal (the report's). */
  ece: number;
  /** Its 95% interval for the population ECE (eceInference); null when undefined. */
  ece_interval: [number, number] | null;
  accuracy: number;
  brier: number;
  auroc: number;
  /** Share of the bootstrap replicates in which this entry has the lowest ECE. */
  p_first: number;
  /** 1-based position by ECE (lowest first). */
  rank: number;
  /** Central 95% of its rank over the replicates. */
  rank_interval: [number, number];
}

export interface Leaderboard {
  signal: SignalName;
  entries: LeaderboardEntry[];
  /** Entries left out, with why (the signal missing on some question). */
  skipped: { name: string; reason: string }[];
  /** True when every entry has the same questions and the replicates were drawn paired. */
  paired: boolean;
  B: number;
  seed: number;
}

export interface LeaderboardOptions {
  B?: number;
  seed?: number;
}

interface Scored {
  entry: CompareEntry;
  conf: Float64Array;
  y: Float64Array;
  bins: number;
}

function sameQuestions(scored: readonly Scored[]): number[][] | null {
  const keys = scored.map((s) => s.entry.model.questions.map(questionKey));
  const first = new Map(keys[0].map((k, i) => [k, i]));
  if (first.size !== keys[0].length) return null;
  const orders: number[][] = [];
  for (const ks of keys) {
    if (ks.length !== first.size || new Set(ks).size !== ks.length) return null;
    // order[i] = this entry's row of the first entry's question i.
    const order = new Array<number>(ks.length);
    for (let r = 0; r < ks.length; r++) {
      const i = first.get(ks[r]);
      if (i === undefined) return null;
      order[i] = r;
    }
    orders.push(order);
  }
  return orders;
}

function gather(src: Float64Array, rows: ArrayLike<number>, out: Float64Array): Float64Array {
  for (let i = 0; i < rows.length; i++) out[i] = src[rows[i]];
  return out;
}

/** Ranks (1 = lowest ECE, ties share the smaller rank) and the first place's credit, NaN last. */
function ranksOf(eces: readonly number[]): { rank: number[]; first: number[] } {
  const v = eces.map((e) => (Number.isFinite(e) ? e : Infinity));
  const rank = v.map((e) => 1 + v.filter((o) => o < e).length);
  const best = Math.min(...v);
  const tied = v.filter((e) => e === best).length;
  return { rank, first: v.map((e) => (e === best && Number.isFinite(best) ? 1 / tied : 0)) };
}

export function leaderboard(entries: readonly CompareEntry[], signal: SignalName, options: LeaderboardOptions = {}): Leaderboard {
  const B = Math.max(1, Math.floor(options.B ?? SCORING_DEFAULTS.bootstrap.B));
  const seed = options.seed ?? SCORING_DEFAULTS.bootstrap.seed;
  const skipped: Leaderboard['skipped'] = [];
  const scored: Scored[] = [];
  for (const entry of entries) {
    const qs = entry.model.questions;
    const conf = Float64Array.from(qs, (q) => signalValue(q, signal));
    if (qs.length === 0 || !conf.every(Number.isFinite)) {
      skipped.push({ name: entry.name, reason: qs.length === 0 ? 'no questions' : `${signal} is missing on some questions` });
      continue;
    }
    scored.push({ entry, conf, y: Float64Array.from(qs, (q) => q.correct), bins: entry.document.settings.bins });
  }
  const k = scored.length;
  const orders = k > 0 ? sameQuestions(scored) : null;
  const ranks = scored.map(() => new Float64Array(B));
  const firsts = new Float64Array(k);
  const rng = defaultRng(seed);
  const bufs = scored.map((s) => ({ c: new Float64Array(s.conf.length), y: new Float64Array(s.conf.length), rows: new Int32Array(s.conf.length) }));
  const shared = orders ? new Int32Array(scored[0].conf.length) : null;
  for (let b = 0; b < B && k > 0; b++) {
    if (shared) rng.fillIntegers(0, shared.length, shared);
    const eces = scored.map((s, e) => {
      const buf = bufs[e];
      if (shared) for (let i = 0; i < shared.length; i++) buf.rows[i] = orders![e][shared[i]];
      else rng.fillIntegers(0, s.conf.length, buf.rows);
      return eceEqualWidth(gather(s.conf, buf.rows, buf.c), gather(s.y, buf.rows, buf.y), s.bins);
    });
    const r = ranksOf(eces);
    r.rank.forEach((x, e) => (ranks[e][b] = x));
    r.first.forEach((x, e) => (firsts[e] += x));
  }
  const rows: LeaderboardEntry[] = scored.map((s, e) => {
    const m = s.entry.model.metrics;
    const sm = m.signals[signal];
    const ece = sm?.ece ?? eceEqualWidth(s.conf, s.y, s.bins);
    const stored = eceIntervalOf(m, signal);
    const computed = stored ?? eceInference(s.conf, s.y, { bins: s.bins, seed }).interval;
    const [lo, hi] = percentiles(ranks[e], [2.5, 97.5]);
    return {
      name: s.entry.name,
      questions: s.conf.length,
      ece,
      ece_interval: Number.isFinite(computed[0]) && Number.isFinite(computed[1]) ? computed : null,
      accuracy: m.accuracy,
      brier: sm?.brier.score ?? NaN,
      auroc: sm?.auroc ?? NaN,
      p_first: firsts[e] / B,
      rank: 0,
      rank_interval: [Math.floor(lo), Math.ceil(hi)],
    };
  });
  rows.sort((a, b) => (Number.isFinite(a.ece) ? a.ece : Infinity) - (Number.isFinite(b.ece) ? b.ece : Infinity) || a.name.localeCompare(b.name));
  rows.forEach((r, i) => (r.rank = i + 1));
  return { signal, entries: rows, skipped, paired: orders !== null, B, seed };
}
