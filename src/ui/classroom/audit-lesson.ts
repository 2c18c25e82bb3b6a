/**
 * The classroom's "audit five questions" exercise (issue 30): five simulated questions whose
 * answers' true meanings are known, clustered by a pretend clusterer that wrongly merged two
 * meanings on two of them. The student repairs the classes; Sem1 and Sem2 of the automatic,
 * the student's and the true classes show what a wrong merge does: it swells the modal class, so
 * Sem1 (its share) and Sem2 (its share in held-out samples) both read higher than the truth.
 */
import { sem1 as sem1Of, sem2HeldOut } from '../../core/estimators';
import { labelsOfClasses } from '../../core/partition-agreement';
import { simulateQuestions } from '../../core/simulate';
import { sem2Options } from './classroom-model';

interface LessonSpec {
  question: string;
  /** Each meaning's probability and the ways it is written (a sample takes one in turn). */
  meanings: { p: number; forms: string[] }[];
  /** The two meanings the pretend clusterer merged (wrongly), if it did. */
  merged?: [number, number];
}

const SPECS: readonly LessonSpec[] = [
  { question: 'What is the capital of Australia?', meanings: [{ p: 0.55, forms: ['Canberra', 'canberra'] }, { p: 0.35, forms: ['Sydney'] }, { p: 0.1, forms: ['Melbourne'] }], merged: [0, 1] },
  { question: 'What is the chemical symbol of gold?', meanings: [{ p: 0.85, forms: ['Au', 'AU'] }, { p: 0.15, forms: ['Ag'] }] },
  { question: "Who wrote 'The Trial'?", meanings: [{ p: 0.7, forms: ['Franz Kafka', 'Kafka'] }, { p: 0.3, forms: ['Max Brod'] }] },
  { question: 'Which is the largest planet?', meanings: [{ p: 0.5, forms: ['Jupiter'] }, { p: 0.4, forms: ['Saturn'] }, { p: 0.1, forms: ['Neptune'] }], merged: [0, 1] },
  { question: 'In which year did the Berlin Wall fall?', meanings: [{ p: 0.75, forms: ['1989'] }, { p: 0.25, forms: ['1991'] }] },
];

/** Samples per question: few enough to read, enough for Sem2's split. */
export const LESSON_SAMPLES = 10;

export interface LessonQuestion {
  question: string;
  /** The answers in sampling order. */
  answers: string[];
  /** The true partition (by meaning) and the pretend clusterer's. */
  truth: number[][];
  automatic: number[][];
  /** Whether the pretend clusterer merged two meanings here. */
  wrongMerge: boolean;
}

/** The partition from class labels, answers ascending, classes largest first. */
function partition(labels: ArrayLike<number>): number[][] {
  const by = new Map<number, number[]>();
  for (let i = 0; i < labels.length; i++) by.set(labels[i], [...(by.get(labels[i]) ?? []), i]);
  return [...by.values()].sort((a, b) => b.length - a.length || a[0] - b[0]);
}

/** The five questions, their samples drawn from the seed. */
export function auditLessonQuestions(seed: number): LessonQuestion[] {
  const simulated = simulateQuestions(SPECS.map((s) => ({ pi: s.meanings.map((m) => m.p), correct: [0] })), LESSON_SAMPLES, seed);
  return SPECS.map((spec, k) => {
    const labels = simulated[k].assignments;
    const seen = new Map<number, number>();
    const answers = Array.from(labels, (m) => {
      const forms = spec.meanings[m].forms;
      const turn = seen.get(m) ?? 0;
      seen.set(m, turn + 1);
      return forms[turn % forms.length];
    });
    const merged = spec.merged;
    const automaticLabels = merged ? Array.from(labels, (m) => (m === merged[1] ? merged[0] : m)) : labels;
    const truth = partition(labels);
    const automatic = partition(automaticLabels);
    return { question: spec.question, answers, truth, automatic, wrongMerge: automatic.length < truth.length };
  });
}

/** Sem1 and Sem2 (the classroom's settings: half the samples select, R = 10) of a partition of n answers. */
export function estimatesOf(classes: readonly (readonly number[])[], n: number): { sem1: number; sem2: number } {
  const labels = labelsOfClasses(classes, n);
  return { sem1: sem1Of(classes.map((c) => c.length)), sem2: sem2HeldOut(labels, classes.length, sem2Options(0.5)) };
}
