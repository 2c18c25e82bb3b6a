/**
 * The flags of adaptive sampling, shared by `semece sample` and `semece sample --batch`:
 * --adaptive, --first-round K, --round-size K and --max-selection K become the stopping rule's settings
 * (core/adaptive-rule.ts), checked against --samples, the most a question may get.
 */
import { adaptiveRuleProblems, DEFAULT_ADAPTIVE_RULE } from '../src/core/adaptive-rule.ts';
import type { AdaptiveSettings } from '../src/model/run-spec.ts';
import type { SampledRow } from '../src/model/rows.ts';

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
