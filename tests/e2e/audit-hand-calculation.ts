/**
 * The audit browser test's side of issue 30's "hand calculation": which disagreements the person
 * plants on the drawn questions of a report (merges, splits, changed grades), and κ, the mean ARI
 * and the ECE shift worked out from the report document and those plants by the textbook formulas,
 * written out here rather than through the app's own code, so the page's numbers are checked
 * against an independent computation.
 */
import type { ModelReport, ReportQuestion } from '../../src/model/report';
import type { Grade } from '../../src/model/rows';

/** The automatic classes by hand: answers by class, largest first, ties by first answer. */
export function classesOf(q: ReportQuestion): number[][] {
  const by = new Map<number, number[]>();
  q.samples!.forEach((s, i) => by.set(s.cls, [...(by.get(s.cls) ?? []), i]));
  return [...by.values()].sort((a, b) => b.length - a.length || a[0] - b[0]);
}

const bySize = (a: number[], b: number[]) => b.length - a.length || a[0] - b[0];

export const flip: Record<Grade, Grade> = { CORRECT: 'INCORRECT', INCORRECT: 'CORRECT', NOT_ATTEMPTED: 'CORRECT' };

export interface Planted {
  q: ReportQuestion;
  /** What the person does to the classes: merge the two largest, split the first answer of the largest off, or nothing. */
  edit: 'merge' | 'split' | null;
  /** The person's partition after the edit, largest class first. */
  classes: number[][];
  /** The person's grade of the modal answer. */
  grade: Grade;
}

export interface Plants {
  planted: Planted[];
  /** The position where a split is made, undone, redone and undone again (classes left as they were). */
  undoAt: number;
}

/**
 * What the person does on each drawn question, chosen from the answers the run got: merges on the
 * first three questions with two classes or more, splits on the next two whose largest class has
 * two answers or more, and four grades changed on questions left whole (three flipped, one marked
 * not attempted). Chosen from the data, so every plant is a real disagreement whatever the mock served.
 */
export function plantDisagreements(questions: readonly ReportQuestion[]): Plants {
  const edits = new Map<number, 'merge' | 'split'>();
  const pick = (count: number, fits: (c: number[][]) => boolean) => questions.map((_, j) => j).filter((j) => !edits.has(j) && fits(classesOf(questions[j]))).slice(0, count);
  for (const j of pick(3, (c) => c.length > 1)) edits.set(j, 'merge');
  for (const j of pick(2, (c) => c[0].length > 1)) edits.set(j, 'split');
  const whole = questions.map((_, j) => j).filter((j) => !edits.has(j));
  const regraded = new Map<number, (g: Grade) => Grade>(whole.slice(0, 4).map((j, k) => [j, k === 3 ? () => 'NOT_ATTEMPTED' : (g) => flip[g]]));
  const undoAt = whole.slice(4).find((j) => classesOf(questions[j])[0].length > 1) ?? -1;
  const planted = questions.map((q, j): Planted => {
    let classes = classesOf(q);
    const edit = edits.get(j) ?? null;
    if (edit === 'merge') classes = [[...classes[0], ...classes[1]].sort((a, b) => a - b), ...classes.slice(2)].sort(bySize);
    if (edit === 'split') classes = [classes[0].slice(1), ...classes.slice(1), [classes[0][0]]].sort(bySize);
    return { q, edit, classes, grade: (regraded.get(j) ?? ((g: Grade) => g))(q.grade) };
  });
  return { planted, undoAt };
}

const CATS: Grade[] = ['CORRECT', 'INCORRECT', 'NOT_ATTEMPTED'];

/** Cohen's κ over three categories from the confusion table: (p_o − p_e) / (1 − p_e). */
export function handKappa(planted: readonly Planted[]): number {
  const n = planted.length;
  const po = planted.filter((p) => p.grade === p.q.grade).length / n;
  const pe = CATS.reduce((s, c) => s + (planted.filter((p) => p.q.grade === c).length / n) * (planted.filter((p) => p.grade === c).length / n), 0);
  return (po - pe) / (1 - pe);
}

const choose2 = (m: number) => (m * (m - 1)) / 2;

/** ARI per question from the contingency table (Hubert & Arabie), 1 for identical partitions; the mean over questions. */
export function handAri(planted: readonly Planted[]): number {
  const ari = planted.map(({ q, classes }) => {
    const person = new Array<number>(q.n);
    classes.forEach((c, k) => c.forEach((i) => (person[i] = k)));
    const cells = new Map<string, number>(), a = new Map<number, number>(), b = new Map<number, number>();
    q.samples!.forEach((s, i) => {
      cells.set(`${s.cls}/${person[i]}`, (cells.get(`${s.cls}/${person[i]}`) ?? 0) + 1);
      a.set(s.cls, (a.get(s.cls) ?? 0) + 1);
      b.set(person[i], (b.get(person[i]) ?? 0) + 1);
    });
    const sum = (m: Map<unknown, number>) => [...m.values()].reduce((s, x) => s + choose2(x), 0);
    const index = sum(cells), sa = sum(a), sb = sum(b), expected = (sa * sb) / choose2(q.n), max = (sa + sb) / 2;
    return sa === index && sb === index ? 1 : (index - expected) / (max - expected);
  });
  return ari.reduce((s, x) => s + x, 0) / ari.length;
}

/**
 * The ECE shift by hand: every question's (conf, y) in equal-width bins, D_b = Σ (y − conf); the
 * audited questions' changes weighted N/k (a plain draw of k of N); ECE = Σ|D_b| / N, after − before.
 */
export function handShift(model: ModelReport, planted: readonly Planted[], bins: number, signal: 'sem1' | 'verbalized'): number {
  const bin = (c: number) => {
    let k = 0;
    while (k < bins - 1 && (k + 1) * (1 / bins) <= c) k++;
    return k;
  };
  const D = new Array<number>(bins).fill(0);
  for (const q of model.questions) D[bin(q[signal])] += q.correct - q[signal];
  const after = [...D];
  const w = model.questions.length / planted.length;
  for (const { q, classes, grade } of planted) {
    // Sem1 is the largest class's share, the person's after the correction; verbalized reads no partition.
    const conf = signal === 'sem1' ? classes[0].length / q.n : q.verbalized;
    after[bin(q[signal])] -= w * (q.correct - q[signal]);
    after[bin(conf)] += w * ((grade === 'CORRECT' ? 1 : 0) - conf);
  }
  const ece = (d: number[]) => d.reduce((s, x) => s + Math.abs(x), 0) / model.questions.length;
  return ece(after) - ece(D);
}
