/**
 * One audited question as the person corrected it: the report's question with the person's
 * partition and grade in place of the clusterer's and the grader's, every number that follows from
 * them recomputed by the score stage's own functions (core estimateQuestion: Sem1 from the class
 * sizes, Sem2 per spec with the report's R, seed and selection; the regime with the report's K̄;
 * entropy confidence and the black-box signals that read the partition, black-box-signals.ts).
 * Signals that read no partition (verbalized, stated probability, logprob, lexical similarity,
 * p(True)) keep their values: only the outcome they are scored against changes.
 */
import { estimateQuestion } from '../core/estimators';
import { labelsOfClasses } from '../core/partition-agreement';
import { regimeOf } from '../core/regimes';
import type { AuditLine } from '../formats/audit-file';
import type { ReportQuestion } from '../model/report';
import { gradeToY } from '../model/rows';
import { entropyConfidence, signalInfo, type SignalName } from '../model/signals';
import { blackBoxSignalValues } from './black-box-signals';
import { scoringUsed, type ScoreOptions } from './score-stage';

/** The signals a question stores that its partition decides (recomputed on a correction). */
function partitionSignals(q: ReportQuestion): SignalName[] {
  return (Object.keys(q.signals ?? {}) as SignalName[]).filter((s) => {
    const info = signalInfo(s);
    return info.inputs.length === 1 && info.inputs[0] === 'partition';
  });
}

/**
 * The question with the person's classes and grade. `meanClasses` is the report's K̄ (its
 * metrics.meanClasses), so the regime is placed by the report's boundaries.
 */
export function correctedQuestion(q: ReportQuestion, line: Pick<AuditLine, 'classes' | 'grade'>, meanClasses: number, options: ScoreOptions = {}): ReportQuestion {
  const { sem2: s } = scoringUsed(options);
  const fixed = s.selection;
  // The same Sem2 settings as the score stage's estimateQuestions.
  const sem2 = { R: s.R, seed: s.seed, selectionSize: fixed === 'half' ? undefined : () => fixed };
  const labels = labelsOfClasses(line.classes, q.n);
  const e = estimateQuestion({ assignments: labels, nClasses: line.classes.length }, { sem2 });
  const out: ReportQuestion = {
    ...q,
    sem1: e.sem1,
    sem2: e.sem2,
    correct: gradeToY(line.grade),
    grade: line.grade,
    margin: e.margin,
    stdMargin: e.stdMargin,
    regime: regimeOf(e.stdMargin, e.margin, e.n, meanClasses) ?? q.regime,
    entropy: e.entropy,
    nClasses: e.nonEmptyClasses,
  };
  const labelOf = (members: readonly number[], c: number) => q.samples?.[members[0]!]?.answer || `class ${c + 1}`;
  out.classes = line.classes.map((members, c) => ({ label: labelOf(members, c), size: members.length }));
  out.modalLabel = out.classes[e.modal]?.label ?? q.modalLabel;
  if (q.samples) out.samples = q.samples.map((sample, j) => ({ ...sample, cls: labels[j]! }));
  const recomputed = partitionSignals(q);
  if (recomputed.length > 0) {
    const signals = { ...q.signals };
    for (const name of recomputed) delete signals[name];
    const black = blackBoxSignalValues({ estimates: e }, recomputed.filter((n) => n !== 'entropyConfidence'));
    out.signals = { ...signals, ...black, ...(recomputed.includes('entropyConfidence') ? { entropyConfidence: entropyConfidence(e.entropy) } : {}) };
  }
  return out;
}
