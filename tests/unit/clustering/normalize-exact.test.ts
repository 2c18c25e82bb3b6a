import { describe, expect, test } from 'vitest';
import { normalizeAnswer } from '../../../src/clustering/normalize';
import { chosenOption, clusterExact, createExactClusterer } from '../../../src/clustering/exact';
import { classesToRowFields, rowFieldsToClasses } from '../../../src/clustering/row-fields';

describe('normalizeAnswer', () => {
  test.each([
    ['The Eiffel Tower', 'eiffel tower'],
    ['  eiffel   tower. ', 'eiffel tower'],
    ['U.S.', 'us'],
    ['New-York', 'new york'],
    ['Café', 'cafe'],
    ['an apple a day', 'apple day'],
    ['Theatre', 'theatre'],
    ['"Paris!"', 'paris'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(normalizeAnswer(input)).toBe(expected);
  });
});

describe('chosenOption', () => {
  const options = ['Paris', 'Lyon', 'Marseille', 'Nice'];
  test.each([
    ['B', 1],
    ['(c)', 2],
    ['D) Nice', 3],
    ['A. Paris', 0],
    ['Option B', 1],
    ['The answer is C.', 2],
    ['Answer: (d)', 3],
    ['lyon', 1],
    ['A city in France', -1],
    ['E', -1],
    ['Toulouse', -1],
  ])('%j → %d', (answer, expected) => {
    expect(chosenOption(answer, options)).toBe(expected);
  });
});

describe('clusterExact', () => {
  test('normalized-equal answers share a class; classes by first appearance; label is the first text', () => {
    const classes = clusterExact(['Lyon', 'Paris', 'the paris', 'PARIS.', 'Lyon ', 'Nice']);
    expect(classes).toEqual([
      { label: 'Lyon', members: [0, 4] },
      { label: 'Paris', members: [1, 2, 3] },
      { label: 'Nice', members: [5] },
    ]);
  });

  test('multiple choice: the chosen option is the class, labelled by its letter', () => {
    const classes = clusterExact(['B', 'Lyon', '(A) Paris', 'b.', 'I am not sure'], ['Paris', 'Lyon']);
    expect(classes).toEqual([
      { label: 'B', members: [0, 1, 3] },
      { label: 'A', members: [2] },
      { label: 'I am not sure', members: [4] },
    ]);
  });

  test('the clusterer returns a value and honours an aborted signal', async () => {
    const c = createExactClusterer();
    expect(await c.cluster('q', ['x', 'X'])).toEqual({ ok: true, value: [{ label: 'x', members: [0, 1] }] });
    const ac = new AbortController();
    ac.abort();
    const r = await c.cluster('q', ['x'], ac.signal);
    expect(r.ok).toBe(false);
  });
});

describe('classesToRowFields', () => {
  test('authors\' fields; modal is the first largest class', () => {
    const fields = classesToRowFields(
      [
        { label: 'a', members: [1, 3] },
        { label: 'b', members: [] },
        { label: 'c', members: [0, 2] },
        { label: 'd', members: [4] },
      ],
      5,
    );
    expect(fields).toEqual({
      n_clusters: 4,
      cluster_labels: ['a', 'b', 'c', 'd'],
      cluster_assignments: [2, 0, 2, 0, 3],
      cluster_sizes: [2, 0, 2, 1],
      modal_cluster: 0,
      modal_cluster_label: 'a',
    });
    expect(rowFieldsToClasses(fields)).toEqual([
      { label: 'a', members: [1, 3] },
      { label: 'b', members: [] },
      { label: 'c', members: [0, 2] },
      { label: 'd', members: [4] },
    ]);
  });

  test('an adaptive row (its selection block given): modal is the block’s most common class, the one graded', () => {
    // Class a is the largest overall (3 of 5), but the first 2 samples (the selection block) are c, c.
    const classes = [
      { label: 'a', members: [2, 3, 4] },
      { label: 'c', members: [0, 1] },
    ];
    expect(classesToRowFields(classes, 5)).toMatchObject({ modal_cluster: 0, modal_cluster_label: 'a' });
    expect(classesToRowFields(classes, 5, 2)).toMatchObject({ modal_cluster: 1, modal_cluster_label: 'c', cluster_sizes: [3, 2] });
    // A tie in the block: the lowest class index wins.
    expect(classesToRowFields(classes, 5, 4)).toMatchObject({ modal_cluster: 0, modal_cluster_label: 'a' });
  });

  test('rejects a non-partition', () => {
    expect(() => classesToRowFields([{ label: 'a', members: [0] }], 2)).toThrow(/sample 1 is in no class/);
    expect(() => classesToRowFields([{ label: 'a', members: [0, 0] }], 1)).toThrow(/listed twice/);
  });
});
