import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { agglomerativeAverage, cosineSimilarity } from '../../../src/clustering/agglomerative';
import { classesFromGroupVectors, mergeNormalized } from '../../../src/clustering/embedding';

/** Unit vector at `deg` degrees in the plane: cos of the angle between two is their similarity. */
const at = (deg: number) => [Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180)];

describe('agglomerativeAverage', () => {
  test('threshold decides: close vectors merge, far ones stay apart', () => {
    const vectors = [at(0), at(90), at(10), at(95), at(180)];
    // cos 10° ≈ 0.985, cos 5° ≈ 0.996, cos 85° ≈ 0.087
    expect(agglomerativeAverage(vectors, 0.95)).toEqual([[0, 2], [1, 3], [4]]);
    expect(agglomerativeAverage(vectors, 0.999)).toEqual([[0], [1], [2], [3], [4]]);
    expect(agglomerativeAverage(vectors, -1)).toEqual([[0, 1, 2, 3, 4]]);
  });

  test('average linkage: a cluster joins only when the mean similarity clears the threshold', () => {
    // sim(0,1) = cos 20° = 0.940, sim(1,2) = cos 25° = 0.906, sim(0,2) = cos 45° = 0.707.
    // After {0,1} forms, 2's mean similarity to it is (0.707 + 0.906)/2 = 0.807.
    const vectors = [at(0), at(20), at(45)];
    expect(agglomerativeAverage(vectors, 0.85)).toEqual([[0, 1], [2]]);
    expect(agglomerativeAverage(vectors, 0.8)).toEqual([[0, 1, 2]]);
  });

  test('weights count samples: a heavy item pulls the average', () => {
    const vectors = [at(0), at(20), at(45)];
    // (w0·0.707 + w1·0.906)/(w0 + w1): 0.807 for equal weights, 0.740 when item 0 weighs 5.
    expect(agglomerativeAverage(vectors, 0.8, [1, 1, 1])).toEqual([[0, 1, 2]]);
    expect(agglomerativeAverage(vectors, 0.8, [5, 1, 1])).toEqual([[0, 1], [2]]);
  });

  test('ties are broken by index: of two equally similar pairs the lower one merges first', () => {
    // sim(0,1) and sim(1,2) are both exactly √½; once {0,1} forms, 2 is at mean 0.354 from it.
    const h = Math.SQRT1_2;
    expect(agglomerativeAverage([[1, 0], [h, h], [0, 1]], 0.7)).toEqual([[0, 1], [2]]);
    expect(agglomerativeAverage([[0, 1], [h, h], [1, 0]], 0.7)).toEqual([[0, 1], [2]]);
    expect(agglomerativeAverage([at(0), at(0), at(90), at(90)], 0.99)).toEqual([[0, 1], [2, 3]]);
  });

  test('property: output is a partition ordered by first item, and repeat runs agree', () => {
    fc.assert(
      fc.property(fc.array(fc.float({ min: -180, max: 180, noNaN: true }), { minLength: 1, maxLength: 30 }), fc.float({ min: -1, max: 1, noNaN: true }), (degs, t) => {
        const vectors = degs.map(at);
        const groups = agglomerativeAverage(vectors, t);
        expect(groups.flat().sort((a, b) => a - b)).toEqual(degs.map((_, i) => i));
        for (let g = 1; g < groups.length; g++) expect(groups[g][0]).toBeGreaterThan(groups[g - 1][0]);
        expect(agglomerativeAverage(vectors, t)).toEqual(groups);
      }),
    );
  });

  test('cosine of zero vectors is 0, not NaN', () => {
    expect(cosineSimilarity([0, 0], [1, 0])).toBe(0);
    expect(cosineSimilarity([2, 0], [3, 0])).toBeCloseTo(1, 12);
  });
});

describe('embedding clustering on fixed vectors', () => {
  test('normalized duplicates merge before any vector is used; classes by first appearance', () => {
    const answers = ['Lyon', 'Paris', 'the Paris', 'City of Paris', 'lyon.', 'Paris'];
    const groups = mergeNormalized(answers);
    expect(groups).toEqual([
      { text: 'Lyon', samples: [0, 4] },
      { text: 'Paris', samples: [1, 2, 5] },
      { text: 'City of Paris', samples: [3] },
    ]);
    const classes = classesFromGroupVectors(answers, groups, [at(90), at(0), at(5)], 0.9);
    expect(classes).toEqual([
      { label: 'Lyon', members: [0, 4] },
      { label: 'Paris', members: [1, 2, 3, 5] },
    ]);
  });
});
