/** Display names and colours of the confidence signals, shared by every chart and table. */
import type { SignalName } from '../../model/report';

export const SIGNAL_LABEL: Record<SignalName, string> = {
  sem1: 'Sem1 (same-sample)',
  sem2: 'Sem2 (held-out)',
  verbalized: 'Verbalized',
  stated: 'Stated probability',
  logprob: 'Token log-prob',
  entropyConfidence: 'Entropy confidence',
};

export const SIGNAL_SHORT: Record<SignalName, string> = {
  sem1: 'Sem1',
  sem2: 'Sem2',
  verbalized: 'Verbalized',
  stated: 'Stated',
  logprob: 'Log-prob',
  entropyConfidence: 'Entropy',
};

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

/** The order signals are listed in: the paper's three first. */
export const SIGNAL_ORDER: SignalName[] = ['sem1', 'sem2', 'verbalized', 'stated', 'logprob', 'entropyConfidence'];
