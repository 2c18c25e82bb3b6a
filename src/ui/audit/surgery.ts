/**
 * Cluster surgery on one audited question, as pure functions over a small value: the person's
 * partition of the answer indices (0-based, in sampling order) and the grade of the modal answer.
 * Every edit returns a new value in one normal form (classes ordered by size, largest first, ties
 * by their first answer; each class's answers ascending; no empty class), so "class 2" on the page
 * is the same class before and after a reload, and an audit file written from it is canonical.
 * Undo and redo are a history of such values (`History`), so any edit can be taken back.
 */
import type { Grade } from '../../model/rows';

export interface SurgeryState {
  /** The person's partition of the answer indices, in normal form. */
  classes: number[][];
  /** The person's grade of the modal answer (the first class's); null until marked. */
  grade: Grade | null;
}

/** The partition in normal form: empty classes dropped, answers ascending, classes by size then first answer. */
export function normalize(classes: readonly (readonly number[])[]): number[][] {
  return classes
    .filter((c) => c.length > 0)
    .map((c) => [...c].sort((a, b) => a - b))
    .sort((a, b) => b.length - a.length || a[0] - b[0]);
}

/** The partition an assignment makes (`cls[i]` is answer i's class), in normal form. */
export function partitionOf(cls: readonly number[]): number[][] {
  const byClass = new Map<number, number[]>();
  cls.forEach((c, i) => {
    const members = byClass.get(c);
    if (members) members.push(i);
    else byClass.set(c, [i]);
  });
  return normalize([...byClass.values()]);
}

/** Answer i's class index in `classes` (−1 when no class holds it). */
export function classOf(classes: readonly (readonly number[])[], answer: number): number {
  return classes.findIndex((c) => c.includes(answer));
}

/** Whether `classes` partitions 0..n−1: every index exactly once. */
export function isPartitionOf(classes: readonly (readonly number[])[], n: number): boolean {
  const seen = new Uint8Array(n);
  let count = 0;
  for (const c of classes) {
    for (const i of c) {
      if (!Number.isInteger(i) || i < 0 || i >= n || seen[i]) return false;
      seen[i] = 1;
      count++;
    }
  }
  return count === n;
}

/**
 * Answer `answer` moved into class `to`; `to` equal to the number of classes (one past the last)
 * moves it into a class of its own. Moving an answer to the class it is in changes nothing.
 */
export function moveAnswer(state: SurgeryState, answer: number, to: number): SurgeryState {
  const from = classOf(state.classes, answer);
  if (from < 0 || to < 0 || to > state.classes.length || to === from) return state;
  if (to === state.classes.length && state.classes[from].length === 1) return state; // already alone
  const classes = state.classes.map((c) => c.filter((i) => i !== answer));
  if (to === state.classes.length) classes.push([answer]);
  else classes[to].push(answer);
  return { ...state, classes: normalize(classes) };
}

/** Answer `answer` taken out of its class into a new class of its own (a split). */
export function splitAnswer(state: SurgeryState, answer: number): SurgeryState {
  return moveAnswer(state, answer, state.classes.length);
}

/** Classes `a` and `b` made one. */
export function mergeClasses(state: SurgeryState, a: number, b: number): SurgeryState {
  if (a === b || !state.classes[a] || !state.classes[b]) return state;
  const classes = state.classes.filter((_, i) => i !== a && i !== b);
  classes.push([...state.classes[a], ...state.classes[b]]);
  return { ...state, classes: normalize(classes) };
}

export function setGrade(state: SurgeryState, grade: Grade | null): SurgeryState {
  return state.grade === grade ? state : { ...state, grade };
}

/** A question's edits: what was, what is, what was undone (and can be redone). */
export interface History {
  past: SurgeryState[];
  present: SurgeryState;
  future: SurgeryState[];
}

export const historyOf = (present: SurgeryState): History => ({ past: [], present, future: [] });

/** The history after an edit; an edit that changes nothing is no step. */
export function record(history: History, next: SurgeryState): History {
  if (next === history.present) return history;
  return { past: [...history.past, history.present], present: next, future: [] };
}

export function undo(history: History): History {
  if (history.past.length === 0) return history;
  return { past: history.past.slice(0, -1), present: history.past[history.past.length - 1], future: [history.present, ...history.future] };
}

export function redo(history: History): History {
  if (history.future.length === 0) return history;
  return { past: [...history.past, history.present], present: history.future[0], future: history.future.slice(1) };
}
