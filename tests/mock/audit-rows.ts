/**
 * A 40-question run in the rows a loopback-mock run writes (`semece sample` → `cluster --method
 * exact` → `grade --method alias`: replies "Answer: …\nConfidence: 70%", n = 4 samples), and a
 * 20-question audit of it with planted wrong merges and wrong grades, built so every number the
 * audit reports can be worked out by hand (tests/unit/pipeline/audit-summary.test.ts shows the
 * arithmetic; the CLI test checks the same numbers through `semece score --audit`).
 *
 * The run (automatic classes and grades; each row's `category` is its letter):
 *   A  q0…q23   one class {0,1,2,3}     Sem1 1     CORRECT
 *   B  q24…q31  {0,1,2} {3}             Sem1 0.75  CORRECT
 *   C  q32…q35  {0,1,2} {3}             Sem1 0.75  INCORRECT
 *   D  q36…q39  one class               Sem1 1     NOT_ATTEMPTED
 * The audit: the even questions q0, q2, …, q38 (20 of 40), by "ana". Planted:
 *   wrong merges  q0, q2, q4: the person splits the one class into four singletons (q0 also
 *                 INCORRECT); q24: {0,1,2}{3} → {0,1}{2}{3};
 *   wrong grades  q6 CORRECT → INCORRECT, q26 CORRECT → NOT_ATTEMPTED, q32 INCORRECT → CORRECT,
 *                 q36 NOT_ATTEMPTED → INCORRECT.
 */
import type { AuditGrade, AuditLine } from '../../src/formats/audit-file';

export const N_SAMPLES = 4;
export const STATED = 70;
const AT = '2026-12-06T10:00:00Z';

type Kind = 'A' | 'B' | 'C' | 'D';
export const kindOf = (i: number): Kind => (i < 24 ? 'A' : i < 32 ? 'B' : i < 36 ? 'C' : 'D');
const gradeOf: Record<Kind, AuditGrade> = { A: 'CORRECT', B: 'CORRECT', C: 'INCORRECT', D: 'NOT_ATTEMPTED' };

function answersOf(i: number): string[] {
  const kind = kindOf(i);
  const gold = `gold${i}`;
  if (kind === 'A') return [gold, gold, gold, gold];
  if (kind === 'B') return [gold, gold, gold, `other${i}`];
  if (kind === 'C') return [`wrong${i}`, `wrong${i}`, `wrong${i}`, gold];
  return ['I do not know', 'I do not know', 'I do not know', 'I do not know'];
}

/** The clustered and graded JSONL texts of the run. */
export function auditRunRows(model = 'mock-model'): { clustered: string; graded: string } {
  const clustered: string[] = [];
  const graded: string[] = [];
  for (let i = 0; i < 40; i++) {
    const answers = answersOf(i);
    const labels = [...new Set(answers)];
    const assignments = answers.map((a) => labels.indexOf(a));
    const sizes = labels.map((_, k) => assignments.filter((c) => c === k).length);
    const question = `Which token is number ${i}?`;
    clustered.push(JSON.stringify({
      id: `q${i}`, question, gold_answer: `gold${i}`, model, n_samples: N_SAMPLES, category: kindOf(i),
      results: answers.map((a) => `Thinking about it briefly.\nAnswer: ${a}\nConfidence: ${STATED}%`),
      answer_extracted: answers, confidence_verbalized: answers.map(() => STATED / 100),
      n_clusters: labels.length, cluster_labels: labels, cluster_assignments: assignments, cluster_sizes: sizes,
      modal_cluster: 0, modal_cluster_label: labels[0],
    }));
    const grade = gradeOf[kindOf(i)];
    graded.push(JSON.stringify({ id: `q${i}`, model, question, gold_answer: `gold${i}`, modal_cluster_label: labels[0], grade, Y: grade === 'CORRECT' ? 1 : 0 }));
  }
  return { clustered: clustered.join('\n') + '\n', graded: graded.join('\n') + '\n' };
}

/** The person's audit of the even questions, with the planted corrections. */
export function plantedAudit(by = 'ana'): AuditLine[] {
  const lines: AuditLine[] = [];
  for (let i = 0; i < 40; i += 2) {
    const kind = kindOf(i);
    let classes: number[][] = kind === 'A' || kind === 'D' ? [[0, 1, 2, 3]] : [[0, 1, 2], [3]];
    let grade = gradeOf[kind];
    if (i === 0 || i === 2 || i === 4) classes = [[0], [1], [2], [3]];
    if (i === 24) classes = [[0, 1], [2], [3]];
    if (i === 0 || i === 6) grade = 'INCORRECT';
    if (i === 26) grade = 'NOT_ATTEMPTED';
    if (i === 32) grade = 'CORRECT';
    if (i === 36) grade = 'INCORRECT';
    lines.push({ id: `q${i}`, classes, grade, by, at: AT });
  }
  return lines;
}
