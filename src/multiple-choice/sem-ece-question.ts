/**
 * Sem-ECE on multiple-choice questions: n sampled replies to the multiple-choice prompt, the chosen
 * option letter as the semantic class (the exact clusterer's option classes), so the sampling
 * signals (Sem1, Sem2, entropy) and the stated probability are scored on the same questions.
 *
 * Differences from the ConfidenceBench scoring of outcome.ts, and why:
 * - A sample with no readable option (unparsable, refusal) is its own class, labelled
 *   NO_OPTION, not a random letter: a random letter would add agreement that the model never
 *   expressed. A NO_OPTION modal class is graded NOT_ATTEMPTED (Y = 0), like a refusal in the paper.
 * - verbalized = the spec's mean of every sample's stated probability (missing counts 1.0).
 * - stated = the model's own probability for the graded answer: the mean stated probability over
 *   the samples that chose the modal option (1/k when the modal class is NO_OPTION, the
 *   ConfidenceBench value for a reply without an answer).
 * - logprob = the softmax probability of the modal option's letter in a greedy reply's token
 *   distribution (logprob-confidence.ts); absent when that reply has no usable logprobs.
 * Output is the authors' clustered and graded rows plus the extra signals, so the scoring stage
 * reads them like any other run.
 */
import { clusterExact } from '../clustering/exact';
import { classesToRowFields } from '../clustering/row-fields';
import { estimateQuestion, type EstimateOptions } from '../core/estimators';
import { pairwiseMean } from '../core/pairwise';
import type { QuestionEstimates } from '../core/types';
import type { SignalName } from '../model/report';
import { gradeToY, type ClusteredRow, type GradedRow } from '../model/rows';
import type { TokenLogprob } from '../model/provider';
import type { McQuestion } from './prompt';
import { parseMcReply } from './reply-parse';
import { mcLogprobConfidence } from './logprob-confidence';
import { entropyConfidence } from '../model/signals';

export const NO_OPTION = '(no option)';

export interface McSemInput {
  question: McQuestion;
  /** The n sampled replies (null for a sample whose request failed: it is not counted). */
  replies: (string | null)[];
  /** Token logprobs of one greedy (temperature 0) reply, when the provider gives them. */
  greedyLogprobs?: TokenLogprob[];
}

export interface McSemQuestion {
  clustered: ClusteredRow;
  graded: GradedRow;
  estimates: QuestionEstimates;
  /** Extra signals beside sem1/sem2/verbalized (ReportQuestion.signals). */
  signals: Partial<Record<SignalName, number>>;
  /** Samples whose reply had no readable option. */
  noOption: number;
}

export function mcSemEceQuestion(input: McSemInput, model: string, options: EstimateOptions = {}): McSemQuestion {
  const q = input.question;
  const k = q.options.length;
  const results = input.replies.filter((r): r is string => r !== null);
  const parsed = results.map((r) => parseMcReply(r, k));
  const answers = parsed.map((p) => (p.ok ? p.letter : NO_OPTION));
  const stated = parsed.map((p) => (p.ok ? p.probability : null));
  const fields = classesToRowFields(clusterExact(answers, q.options), answers.length);
  const estimates = estimateQuestion({ assignments: fields.cluster_assignments, nClasses: fields.n_clusters, verbalized: stated }, options);
  const modalLetter = estimates.modal >= 0 ? fields.cluster_labels[estimates.modal] : NO_OPTION;
  const modalIndex = q.letters.indexOf(modalLetter);
  const grade = modalIndex === -1 ? 'NOT_ATTEMPTED' : modalIndex === q.gold ? 'CORRECT' : 'INCORRECT';

  const signals: Partial<Record<SignalName, number>> = { entropyConfidence: entropyConfidence(estimates.entropy) };
  if (modalIndex === -1) signals.stated = 1 / k;
  else {
    const own = parsed.flatMap((p) => (p.ok && p.index === modalIndex ? [p.probability] : []));
    signals.stated = pairwiseMean(own);
  }
  if (input.greedyLogprobs && modalIndex !== -1) {
    const lp = mcLogprobConfidence(input.greedyLogprobs, q.letters);
    if (lp.ok) signals.logprob = lp.distribution[modalIndex];
  }
  const gold = q.letters[q.gold];
  return {
    clustered: {
      id: q.id,
      question: q.question,
      gold_answer: gold,
      model,
      n_samples: results.length,
      results,
      answer_extracted: answers,
      confidence_verbalized: stated,
      ...fields,
    },
    graded: { id: q.id, model, question: q.question, gold_answer: gold, modal_cluster_label: modalLetter, grade, Y: gradeToY(grade) },
    estimates,
    signals,
    noOption: answers.filter((a) => a === NO_OPTION).length,
  };
}
