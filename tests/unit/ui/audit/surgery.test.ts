import { describe, expect, it } from 'vitest';
import { classOf, historyOf, isPartitionOf, mergeClasses, moveAnswer, normalize, partitionOf, record, redo, setGrade, splitAnswer, undo, type SurgeryState } from '../../../../src/ui/audit/surgery';

const start = (cls: number[]): SurgeryState => ({ classes: partitionOf(cls), grade: null });

describe('cluster surgery', () => {
  it('orders classes by size, ties by first answer, answers ascending', () => {
    expect(partitionOf([2, 0, 0, 1, 2, 0])).toEqual([[1, 2, 5], [0, 4], [3]]);
    expect(normalize([[4], [], [3, 1], [0]])).toEqual([[1, 3], [0], [4]]);
  });

  it('moves an answer into another class, and into a class of its own', () => {
    const s = start([0, 0, 0, 1, 1, 2]); // [[0,1,2],[3,4],[5]]
    expect(moveAnswer(s, 5, 1).classes).toEqual([[0, 1, 2], [3, 4, 5]]);
    expect(moveAnswer(s, 0, 3).classes).toEqual([[1, 2], [3, 4], [0], [5]]);
    // No change: its own class, out of range, or already alone.
    expect(moveAnswer(s, 0, 0)).toBe(s);
    expect(moveAnswer(s, 0, 9)).toBe(s);
    expect(moveAnswer(s, 5, 3)).toBe(s);
    expect(splitAnswer(s, 3).classes).toEqual([[0, 1, 2], [3], [4], [5]]);
  });

  it('merges two classes, the merged one ordered by its new size', () => {
    const s = start([0, 0, 0, 1, 1, 2]);
    const merged = mergeClasses(s, 1, 2);
    expect(merged.classes).toEqual([[0, 1, 2], [3, 4, 5]]); // a tie in size: the class with the first answer first
    expect(mergeClasses(s, 1, 1)).toBe(s);
    expect(isPartitionOf(merged.classes, 6)).toBe(true);
    expect(classOf(merged.classes, 5)).toBe(1);
  });

  it('checks a partition: every index once', () => {
    expect(isPartitionOf([[0, 2], [1]], 3)).toBe(true);
    expect(isPartitionOf([[0, 2], [2, 1]], 3)).toBe(false);
    expect(isPartitionOf([[0], [1]], 3)).toBe(false);
    expect(isPartitionOf([[0, 3], [1, 2]], 3)).toBe(false);
  });

  it('undoes and redoes edits in order; an edit after an undo drops what was undone', () => {
    let h = historyOf(start([0, 1, 2]));
    h = record(h, mergeClasses(h.present, 0, 1));
    h = record(h, setGrade(h.present, 'INCORRECT'));
    expect(h.present).toEqual({ classes: [[0, 1], [2]], grade: 'INCORRECT' });
    h = undo(h);
    expect(h.present.grade).toBeNull();
    h = undo(h);
    expect(h.present.classes).toEqual([[0], [1], [2]]);
    expect(undo(h)).toBe(h);
    h = redo(h);
    expect(h.present.classes).toEqual([[0, 1], [2]]);
    h = record(h, splitAnswer(h.present, 0));
    expect(h.future).toEqual([]);
    expect(redo(h)).toBe(h);
    // An edit that changes nothing is no step.
    expect(record(h, setGrade(h.present, null))).toBe(h);
  });
});
