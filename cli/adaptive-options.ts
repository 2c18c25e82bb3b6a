/**
 * The flags of adaptive sampling, shared by `semece sample` and `semece sample --batch`:
 * --adaptive, --first-round K, --round-size K and --max-selection K become the stopping rule's settings
 * (core/adaptive-rule.ts), checked against --samples, the most a question may get.
 *
 * `semece score` takes the same flags to record the rule in its --report (the rows carry only
 * each question's selection_samples, and the report's drill-down replays the rounds from the
 * rule): scoreAdaptiveRule checks that the rule replayed over every row's answers gives that row's
 * selection_samples and samples, so a report never records a rule its rows were not sampled by.
 */
import { adaptiveRuleProblems, DEFAULT_ADAPTIVE_RULE } from '../src/core/adaptive-rule.ts';
import type { AdaptiveSettings } from '../src/model/run-spec.ts';
import type { SampledRow } from '../src/model/rows.ts';
import { adaptiveRowMismatch } from '../src/pipeline/adaptive-slots.ts';

/** parseArgs options of the flags. */
export const ADAPTIVE_OPTIONS = { adaptive: { type: 'boolean' }, 'first-round': { type: 'string' }, 'round-size': { type: 'string' }, 'max-selection': { type: 'string' } } as const;

export const ADAPTIVE_HELP = `  --adaptive           sample in rounds: a question whose first answers all agree stops early, a
                       split one goes on to --samples; each row gets selection_samples, its
                       selection block, and semece score scores its Sem2 on that one split
  --first-round K      with --adaptive: the first round's samples (default ${DEFAULT_ADAPTIVE_RULE.firstRound})
  --round-size K       with --adaptive: each later selection round's samples (default ${DEFAULT_ADAPTIVE_RULE.roundSize}), drawn
                       while the selection agrees and is below --max-selection
  --max-selection K    with --adaptive: the largest selection block (default the larger of
                       ${DEFAULT_ADAPTIVE_RULE.maxSelection} and the first round)`;

function whole(v: string | undefined, name: string, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number ≥ 1, got ${JSON.stringify(v)}`);
  return n;
}

/**
 * The rule's settings: the defaults with --first-round, --round-size and --max-selection (by
 * default at least the first round); undefined without --adaptive. Throws a usage error.
 */
export function adaptiveArgs(values: { adaptive?: boolean; 'first-round'?: string; 'round-size'?: string; 'max-selection'?: string }, n: number): AdaptiveSettings | undefined {
  if (!values.adaptive) {
    if (values['first-round'] !== undefined || values['round-size'] !== undefined || values['max-selection'] !== undefined) {
      throw new Error('--first-round, --round-size and --max-selection need --adaptive');
    }
    return undefined;
  }
  const firstRound = whole(values['first-round'], 'first-round', DEFAULT_ADAPTIVE_RULE.firstRound);
  const roundSize = whole(values['round-size'], 'round-size', DEFAULT_ADAPTIVE_RULE.roundSize);
  const maxSelection = whole(values['max-selection'], 'max-selection', Math.max(DEFAULT_ADAPTIVE_RULE.maxSelection, firstRound));
  const settings: AdaptiveSettings = { ...DEFAULT_ADAPTIVE_RULE, firstRound, roundSize, maxSelection };
  const problems = adaptiveRuleProblems({ ...settings, maxSamples: n });
  if (problems.length > 0) throw new Error(`--adaptive: ${problems.join('; ')}`);
  return settings;
}

/** What an adaptive run spent: its rule, the samples its rows use, and what it saved against n for every question. */
export function adaptiveSummary(rule: AdaptiveSettings, rows: readonly Pick<SampledRow, 'n_samples'>[], n: number) {
  const used = rows.reduce((sum, r) => sum + r.n_samples, 0);
  return { rule, maxSamples: n, samplesUsed: used, savedAgainstFixed: rows.length * n - used };
}

/** parseArgs options of `semece score`'s flags: the rule's, and --samples, the run's maximum. */
export const SCORE_ADAPTIVE_OPTIONS = { ...ADAPTIVE_OPTIONS, samples: { type: 'string' } } as const;

export const SCORE_ADAPTIVE_HELP = `  --adaptive           the rows were sampled with semece sample --adaptive: record the rule in
                       --report (settings.adaptive), so the app replays each question's rounds;
                       every row must have selection_samples, and the rule replayed over its
                       answers must give its selection_samples and n_samples (else exit 2, naming
                       the row). Give the sampling's own --first-round, --round-size, --max-selection
  --samples N          with --adaptive: the run's maximum samples per question (default: the most
                       samples any row has; give it when every question may have stopped early)`;

type ScoreAdaptiveValues = { adaptive?: boolean; 'first-round'?: string; 'round-size'?: string; 'max-selection'?: string; samples?: string };

/** --samples of `semece score` (a whole number ≥ 2), undefined when not given; throws a usage error, also for a round flag without --adaptive. */
export function scoreAdaptiveMaximum(values: ScoreAdaptiveValues): number | undefined {
  if (!values.adaptive) {
    if (values.samples !== undefined) throw new Error('--samples needs --adaptive (semece score reads each row\'s own n_samples)');
    adaptiveArgs(values, 2);
    return undefined;
  }
  if (values.samples === undefined) return undefined;
  const n = Number(values.samples);
  if (!Number.isInteger(n) || n < 2) throw new Error(`--samples must be a whole number ≥ 2, got ${JSON.stringify(values.samples)}`);
  return n;
}

/** A row as the check reads it: where it is, its answers in slot order and its selection block. */
export interface AdaptiveRowRef {
  id: string;
  /** 1-based line of the rows file. */
  line: number;
  answers: readonly string[];
  selection_samples?: number;
}

/** Rows named at most in one error; the rest are counted. */
const NAMED = 10;

/**
 * The rule `semece score --adaptive` records: the flags' settings, with the maximum --samples or
 * else the most samples a row has, checked against every row (adaptiveRowMismatch). The problems
 * name each row by file, line and id. Throws a usage error for flags that make no rule.
 */
export function scoreAdaptiveRule(
  values: ScoreAdaptiveValues,
  maximum: number | undefined,
  rows: readonly AdaptiveRowRef[],
  file: string,
): { ok: true; settings: AdaptiveSettings; maxSamples: number } | { ok: false; problems: string[] } {
  const most = rows.reduce((m, r) => Math.max(m, r.answers.length), 0);
  const maxSamples = maximum ?? most;
  if (most > maxSamples) return { ok: false, problems: [`--samples ${maxSamples}: a row of ${file} has ${most} samples`] };
  const settings = adaptiveArgs(values, maxSamples);
  if (!settings) throw new Error('--adaptive expected');
  const rule = { ...settings, maxSamples };
  const problems: string[] = [];
  let more = 0;
  for (const r of rows) {
    const why = adaptiveRowMismatch(r.answers, r.selection_samples, rule);
    if (why === undefined) continue;
    if (problems.length < NAMED) problems.push(`${file} line ${r.line} (id ${JSON.stringify(r.id)}): ${why}`);
    else more++;
  }
  if (problems.length === 0) return { ok: true, settings, maxSamples };
  const head = `--adaptive: the rule (first round ${settings.firstRound}, round size ${settings.roundSize}, largest selection ${settings.maxSelection}, at most ${maxSamples} samples) does not give these rows' selection blocks; give the flags semece sample --adaptive used:`;
  return { ok: false, problems: [head, ...problems, ...(more > 0 ? [`and ${more} more row${more === 1 ? '' : 's'}`] : [])] };
}
