/**
 * The sentences of the stated-probability panel, built from the baseline section alone so that the
 * panel and its tests read the same words. Numbers use the report's formatting (— when undefined).
 */
import type { McBaselineSection } from '../../model/report';
import { fmt, pct } from './format';

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** "4 options" or "2 to 5 options". */
export function optionRange(options: readonly number[]): string {
  if (options.length === 0) return 'no questions';
  const lo = Math.min(...options);
  const hi = Math.max(...options);
  return lo === hi ? `${lo} options` : `${lo} to ${hi} options`;
}

export function brierSentence(b: McBaselineSection): string {
  const sd = Number.isFinite(b.brier.sd) ? ` ± ${fmt(b.brier.sd)} (sample SD across runs)` : ' (one run: no spread across runs)';
  const mean = b.brier.mean;
  let against = '';
  if (Number.isFinite(mean) && Number.isFinite(b.baselineBrier)) {
    const d = b.baselineBrier - mean;
    against = d > 0 ? `, ${fmt(d)} better than that` : d < 0 ? `, ${fmt(-d)} worse than that` : ', the same as that';
  }
  return (
    `Over ${plural(b.runs, 'run')} of ${plural(b.options.length, 'question')} (${optionRange(b.options)}), the Brier score of the stated probability is ${fmt(mean)}${sd}. ` +
    `Always guessing uniformly would score ${fmt(b.baselineBrier, 4)} on these questions${against}. Lower is better.`
  );
}

export function accuracySentence(b: McBaselineSection): string {
  const sd = Number.isFinite(b.accuracy.sd) ? ` ± ${pct(b.accuracy.sd)}` : '';
  return `Accuracy of the chosen option: ${pct(b.accuracy.mean)}${sd}.`;
}

export function failureSentence(b: McBaselineSection): string {
  const f = b.failures;
  const replies = b.runs * b.options.length;
  if (f.total === 0) return `Every one of the ${plural(replies, 'reply', 'replies')} was read: none was scored as a uniform guess.`;
  const parts = [
    f.unparsable ? plural(f.unparsable, 'unparsable reply', 'unparsable replies') : '',
    f.refusals ? plural(f.refusals, 'refusal') : '',
    f.requestFailed ? plural(f.requestFailed, 'failed request') : '',
  ].filter(Boolean);
  return (
    `${f.total.toLocaleString('en')} of ${plural(replies, 'reply', 'replies')} were scored as uniform guesses (a random option at probability 1/k, as ConfidenceBench does, rather than dropped): ${parts.join(', ')}.`
  );
}
