/**
 * Colours of the confidence signals, shared by every chart and table (names and labels are the
 * domain's: src/model/signals.ts).
 */
import type { SignalName } from '../../model/signals';

/** CSS colour of a signal; a variable so the theme decides. */
export function signalColor(signal: SignalName): string {
  switch (signal) {
    case 'sem1':
    case 'sem2':
    case 'verbalized':
    case 'stated':
      return `var(--series-${signal})`;
    // Mid-tone fallbacks readable on both themes, so two extra signals overlaid stay apart.
    case 'logprob':
      return 'var(--series-logprob, #b7791f)';
    case 'entropyConfidence':
      return 'var(--series-entropy, #0e9fb5)';
    default:
      return 'var(--series-other)';
  }
}
