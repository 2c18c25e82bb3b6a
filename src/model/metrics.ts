/**
 * The calibration metrics of one signal, once (docs/METRICS.md defines each): the key of
 * SignalMetrics, the key the CLI prints, labels, how many digits to show and which direction is
 * better. The report schema's per-signal fields, `semece score`'s metric keys and the headline
 * table's per-signal columns derive from METRICS.
 */
import type { SignalMetrics } from '../core/types';

/** Scalar fields of SignalMetrics, and Brier (its decomposition, shown by its score). */
export type MetricKey = 'ece' | 'eceEqualMass' | 'mce' | 'smoothEce' | 'brier' | 'auroc' | 'aurc' | 'meanConfidence';

/** Keys of `semece score`'s per-signal metrics (snake_case, the authors' style). */
export type MetricCliKey = 'ece' | 'brier' | 'ece_equal_mass' | 'mce' | 'smooth_ece' | 'auroc' | 'aurc' | 'mean_confidence';

export interface MetricInfo {
  key: MetricKey;
  /** Key in `semece score`'s metrics. */
  cli: MetricCliKey;
  label: string;
  short: string;
  /** Decimals a table shows. */
  digits: number;
  /** Which way is better; null for a value that is not a quality (mean confidence). */
  better: 'lower' | 'higher' | null;
  /** 'brier': the value is the decomposition {score, reliability, resolution, uncertainty, within-bin terms} (core/brier.ts). */
  shape: 'number' | 'brier';
  /** A per-signal column of the report's headline table. */
  headline: boolean;
  /**
   * Whether the metric reads the signal as a probability (a calibration measure): `semece score`
   * prints it only for signals that are (model/signals.ts `probability`); a ranking measure is
   * printed for every scored signal.
   */
  calibration: boolean;
  description: string;
  /** Its entry in the glossary (model/glossary.ts), where it has one. */
  glossary?: string;
}

export const METRICS: readonly MetricInfo[] = [
  { key: 'ece', calibration: true, cli: 'ece', label: 'ECE (paper, equal-width bins)', short: 'ECE', digits: 3, better: 'lower', shape: 'number', headline: false, description: "The paper's ECE: 10 equal-width bins with edges i·0.1, weighted gaps between accuracy and mean confidence.", glossary: 'ece' },
  { key: 'brier', calibration: true, cli: 'brier', label: 'Brier score', short: 'Brier', digits: 3, better: 'lower', shape: 'brier', headline: true, description: 'Squared error of each confidence against correctness (lower is better), with its decomposition on the 10 equal-width bins (Stephenson et al. 2008).', glossary: 'brier' },
  { key: 'eceEqualMass', calibration: true, cli: 'ece_equal_mass', label: 'Equal-mass ECE', short: 'ECE (equal mass)', digits: 3, better: 'lower', shape: 'number', headline: false, description: 'The same sum over bins that each hold about a tenth of the questions.', glossary: 'ece-equal-mass' },
  { key: 'mce', calibration: true, cli: 'mce', label: 'MCE (bins of ≥ 10 questions)', short: 'MCE (bins of 10+)', digits: 3, better: 'lower', shape: 'number', headline: false, description: 'The largest gap of any equal-width bin holding at least 10 questions (MCE_MIN_COUNT).', glossary: 'mce' },
  { key: 'smoothEce', calibration: true, cli: 'smooth_ece', label: 'Smooth ECE', short: 'smECE', digits: 3, better: 'lower', shape: 'number', headline: false, description: 'Kernel-smoothed calibration error at its self-consistent bandwidth.', glossary: 'smooth-ece' },
  { key: 'auroc', calibration: false, cli: 'auroc', label: 'AUROC', short: 'AUROC', digits: 3, better: 'higher', shape: 'number', headline: true, description: 'Area under the ROC curve of each confidence for telling correct from incorrect answers (higher is better).', glossary: 'auroc' },
  { key: 'aurc', calibration: false, cli: 'aurc', label: 'AURC', short: 'AURC', digits: 3, better: 'lower', shape: 'number', headline: false, description: 'Area under the risk–coverage curve (lower is better).', glossary: 'aurc' },
  { key: 'meanConfidence', calibration: false, cli: 'mean_confidence', label: 'Mean confidence', short: 'Mean conf.', digits: 3, better: null, shape: 'number', headline: false, description: 'The mean of the signal over the questions.' },
];

/** The number a table shows for a metric (Brier: its score). */
export function metricValue(m: SignalMetrics, key: MetricKey): number {
  return key === 'brier' ? m.brier.score : m[key];
}

/** The per-signal columns of the headline table. */
export const HEADLINE_METRICS: readonly MetricInfo[] = METRICS.filter((m) => m.headline);

/** The measures the report computes beside the headline ones (the paper's ECE has its own columns). */
export const OTHER_METRICS: readonly MetricInfo[] = METRICS.filter((m) => !m.headline && m.key !== 'ece');
