/**
 * The words of the reports, defined once: the glossary page lists them and every place a term
 * appears links to its entry (ui/Term.svelte). Definitions follow docs/METRICS.md, in short.
 */
import { SIGNALS, type SignalName } from './signals';

export interface GlossaryEntry {
  id: string;
  term: string;
  definition: string;
}

/** The report's words. */
const WORDS: readonly GlossaryEntry[] = [
  { id: 'sem1', term: 'Sem1 (same-sample confidence)', definition: 'The share of a question’s n sampled answers that fall in its largest semantic class. The same samples choose the answer and measure it, so Sem1 overstates confidence when the top classes are close (the winner’s curse).' },
  { id: 'sem2', term: 'Sem2 (held-out confidence)', definition: 'Half the samples choose the modal answer; its share of the other half is the confidence, averaged over 10 random splits. Choosing and measuring apart removes the winner’s curse; with few samples it tends to read a little low.' },
  { id: 'c-star', term: 'c* (oracle confidence)', definition: 'The true probability that the model gives the answer it gives most often: what Sem1 and Sem2 estimate. Known only in simulation (the Classroom), where the answer distribution is set by hand.' },
  { id: 'verbalized', term: 'Verbalized confidence', definition: 'The confidence the model states in its reply (“Confidence: 80%”), averaged over its n replies; a reply that states none counts as 100%.' },
  { id: 'entropy-confidence', term: 'Entropy confidence', definition: 'exp(−H), where H is the semantic entropy of the answer classes (−Σ p ln p). 1 when every sample agrees, 1/m when the samples spread evenly over m classes; never above Sem1.' },
  { id: 'margin', term: 'Top-two margin Δ', definition: 'The largest class minus the second largest, as a share of the n samples: how clearly the model prefers its modal answer. 1 when only one answer appears.' },
  { id: 'standardized-margin', term: 'Standardized margin √n·Δ', definition: 'The margin scaled by the square root of n, so that questions sampled with different n compare; it measures the margin in units of its sampling noise.' },
  { id: 'jensen', term: 'Jensen-dominated regime', definition: 'Questions whose standardized margin √n·Δ is below 0.612: the top two answers are so close that which one wins is nearly a coin toss, and Sem1’s bias (from Jensen’s inequality on the max) dominates its error.' },
  { id: 'low-margin', term: 'Low-margin regime', definition: 'Questions above the Jensen threshold but with Δ below √(ln K̄ / n), K̄ the mean number of classes: the modal answer is preferred, but not by much.' },
  { id: 'large-margin', term: 'Large-margin regime', definition: 'Questions with Δ ≥ √(ln K̄ / n): one answer clearly dominates, and Sem1 and Sem2 nearly agree.' },
  { id: 'ece', term: 'ECE (the paper’s)', definition: 'Expected calibration error over 10 equal-width confidence bins: the questions-weighted average of |accuracy − mean confidence| in each bin. 0 is perfect. With few questions per bin it is noisy and reads high.' },
  { id: 'ece-interval', term: 'ECE interval (95%)', definition: 'The one interval the report gives each ECE (table, charts, regimes, exports, semece score’s ece_interval): a 95% interval for the population ECE, the calibration error the model would show on unlimited questions at these confidences (method consistency-inversion: the hypotheses “each bin is off by t times its observed gap, shrunk toward the mean gap” that the observed ECE does not reject, each simulated 2,000 times with the outcomes drawn and the confidences held fixed). The paper’s ECE is biased upward (noise only widens bin gaps), so the interval can lie below it, down to 0.' },
  { id: 'calibration-test', term: 'Calibration test (p)', definition: 'How often a perfectly calibrated model, right with probability equal to its confidence on exactly these confidences, would show an ECE at least as large as the one observed (2,000 simulated data sets). A small p (below 0.05) says the gaps are more than noise; a large one says this data cannot tell the model from a calibrated one, not that it is calibrated.' },
  { id: 'consistency-band', term: 'Consistency band', definition: 'On a reliability diagram, per equal-width bin: where a perfectly calibrated model’s bin accuracy would fall 95% of the time, at that bin’s confidences and number of questions (Bröcker and Smith 2007). A bar top inside its band is a gap noise alone can make; one outside is not. Bins under 10 questions are marked with a ring: their accuracy is a coarse fraction.' },
  { id: 'ece-bias-corrected', term: 'Bootstrap bias-corrected ECE', definition: 'The paper’s ECE minus the bias the bootstrap shows: 2·ECE − the mean ECE of the resamples (Efron and Tibshirani 1993), with its basic bootstrap interval. An approximate correction, not an unbiased estimator. Kept in the JSON export and semece score (ece_bias_corrected); the report shows the ECE interval instead.' },
  { id: 'ece-equal-mass', term: 'Equal-mass ECE', definition: 'The same sum over 10 bins that each hold about a tenth of the questions, so no bin is nearly empty.' },
  { id: 'mce', term: 'MCE', definition: 'Maximum calibration error: the largest |accuracy − mean confidence| of any equal-width bin holding at least 10 questions (a bin of one or two questions has a large gap by chance alone); blank when no bin has 10.' },
  { id: 'smooth-ece', term: 'Smooth ECE', definition: 'Błasiok and Nakkiran’s kernel-smoothed calibration error (ICLR 2024): the gaps are smoothed with a Gaussian kernel instead of binned, at the bandwidth where the error equals the bandwidth; the report shows that bandwidth σ beside the value. It follows the paper; the relplot package gives confidences of exactly 0 or 1 half weight, so it reads lower or higher when many sit there (0.068 against 0.100 here for 10 questions at 1, 8 right, and 10 at 0.5, 5 right).' },
  { id: 'brier', term: 'Brier score', definition: 'The mean of (confidence − correct)², correct being 1 or 0; lower is better. Its decomposition on the 10 equal-width bins (Stephenson, Coelho & Jolliffe 2008) splits it exactly into reliability − resolution + uncertainty + within-bin variance − within-bin covariance; on one common binning a signal that tells right from wrong no better than chance has a resolution near 0.' },
  { id: 'auroc', term: 'AUROC', definition: 'The chance that a randomly chosen right answer has a higher confidence than a randomly chosen wrong one: 0.5 is chance, 1 is perfect ranking.' },
  { id: 'aurc', term: 'AURC', definition: 'Area under the risk–coverage curve: answer only the most confident questions, measure the error rate of those answered, and average over every coverage; lower is better.' },
  { id: 'entailment-clustering', term: 'Entailment clustering', definition: 'Two answers share a semantic class when a natural-language-inference model says each entails the other, with the question as context (Kuhn et al. 2023; Farquhar et al. 2024). A new answer is compared with the first member of each class so far and joins the first that matches both ways; classes are numbered by first appearance.' },
  { id: 'coverage', term: 'Coverage', definition: 'The share of questions a model answers when it abstains below a confidence threshold: 100% with no threshold, less as the threshold rises.' },
  { id: 'selective-error', term: 'Selective error (risk)', definition: 'The error rate among the questions answered at a threshold: wrong answers ÷ answers given. The risk–coverage curve draws it against coverage.' },
  { id: 'abstention', term: 'Abstention threshold', definition: 'The lowest confidence at which the model answers so that its selective error stays at or below a chosen target with 95% confidence: on one seeded half of the questions, the lowest threshold whose exact (Clopper–Pearson) upper bound on the error, Bonferroni-corrected over the at most 50 thresholds tried, is at or below the target (after Geifman & El-Yaniv 2017). It is judged on the other half, so the error it reports is not fitted to the same questions, and over 20 seeded splits to show how much that moves; below it the model says “not attempted”.' },
  { id: 'best-signal', term: 'Best calibrated signal', definition: 'The signal with the lowest ECE, named best only when it beats every other signal: one one-sided test per other signal (k − 1 comparisons, each at 2.5%, with the confidences held fixed and the answers’ correctness simulated), all of which must reject. An intersection–union test (Berger 1982) needs no correction for the number of comparisons; 2.5% rather than 5% because the candidate is picked from the data.' },
  { id: 'bootstrap-interval', term: '95% bootstrap interval', definition: 'The range of a statistic over 1,000 resamples of the questions (drawn with replacement, the same resamples for every signal): the 2.5th and 97.5th percentiles.' },
  { id: 'prr', term: 'PRR (prediction–rejection ratio)', definition: 'How much of the best possible gain a signal gets by rejecting its least confident questions first: the area under its accuracy-of-the-retained curve minus a random order’s, divided by the same for the ideal order that rejects every wrong answer first (Malinin et al. 2017, as LM-Polygraph computes it). 1 is ideal, 0 no better than chance, below 0 worse. Ties in the confidence are averaged over their orders.' },
  { id: 'auarc', term: 'AUARC', definition: 'Area under the accuracy–rejection curve: the accuracy of the answered questions, averaged over every share rejected, least confident first (1 − AURC). Higher is better; it depends on the accuracy as well as the ranking, which PRR removes.' },
  { id: 'ece-recalibrated', term: 'Recalibrated ECE', definition: 'The ECE after a map from the signal to a probability, fitted on one seeded half of the questions and applied to the other, and the other way round (cross-fitting), so no question’s confidence is fitted to its own outcome. Isotonic (a non-decreasing step map, Zadrozny & Elkan 2002) and Platt (a logistic curve, Platt 1999), each with the report’s ECE interval. A score that is not a probability can only be compared on calibration this way; for Sem1 and Sem2, raw against recalibrated tests whether their frequencies already read as probabilities.' },
  { id: 'adaptive-sampling', term: 'Adaptive sampling', definition: 'Sampling a question in rounds, up to a maximum n: a question whose first answers (the selection block) agree stops early, a split one goes on. The held-out block’s size is fixed from the selection alone, so Sem2, its share of the selection’s modal answer, stays unbiased; Sem1 is computed on each question’s own n.' },
  { id: 'selection-block', term: 'Selection block', definition: 'In adaptive sampling, a question’s first samples: they choose the modal answer, and the stopping rule reads them alone.' },
  { id: 'held-out-block', term: 'Held-out block', definition: 'In adaptive sampling, the samples drawn after the selection block, as many as the rule fixed from the selection: their share of its modal answer is the question’s Sem2.' },
  { id: 'budget-planner', term: 'Budget planner', definition: 'For a budget in dollars or samples, the questions fixed n or adaptive sampling can afford and the predicted half-width of each one’s Sem2-ECE interval, with its range, from simulated runs.' },
];

/**
 * The black-box uncertainty signals, defined by their rows in the signals table (model/signals.ts),
 * so a new signal is a glossary entry without a second description.
 */
const SIGNAL_ENTRIES: readonly GlossaryEntry[] = SIGNALS.filter((s) => s.blackBox).map((s) => ({ id: `signal-${s.name}`, term: s.label, definition: s.description }));

/** Every entry: the words above, then the black-box signals. */
export const GLOSSARY: readonly GlossaryEntry[] = [...WORDS, ...SIGNAL_ENTRIES];

export function glossaryEntry(id: string): GlossaryEntry | undefined {
  return GLOSSARY.find((e) => e.id === id);
}

/** The glossary entry of each signal that has one: the paper's three and entropy confidence by hand, each black-box signal its own. */
const SIGNAL_TERMS: Partial<Record<SignalName, string>> = {
  sem1: 'sem1',
  sem2: 'sem2',
  verbalized: 'verbalized',
  entropyConfidence: 'entropy-confidence',
  ...Object.fromEntries(SIGNAL_ENTRIES.map((e) => [e.id.slice('signal-'.length), e.id])),
};

export function signalTerm(s: SignalName): string | undefined {
  return SIGNAL_TERMS[s];
}
