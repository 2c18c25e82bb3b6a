import { describe, expect, test } from 'vitest';
import { SCORING_DEFAULTS, scoringOf } from '../../../src/model/run-spec';

describe('scoring settings of a run', () => {
  test('the defaults are the paper reference values (SEMECE.md)', () => {
    expect(SCORING_DEFAULTS).toEqual({ sem2: { R: 10, seed: 0, selection: 'half' }, bins: 10, bootstrap: { B: 1000, seed: 7 } });
  });

  test('a spec saved without scoring settings takes the defaults; given ones are kept, missing parts filled', () => {
    expect(scoringOf({})).toEqual(SCORING_DEFAULTS);
    const partial = { scoring: { sem2: { R: 3 }, bootstrap: { B: 50 } } } as unknown as Parameters<typeof scoringOf>[0];
    expect(scoringOf(partial)).toEqual({ sem2: { R: 3, seed: 0, selection: 'half' }, bins: 10, bootstrap: { B: 50, seed: 7 } });
    const full = { sem2: { R: 4, seed: 2, selection: 6 }, bins: 5, bootstrap: { B: 80, seed: 1 } };
    expect(scoringOf({ scoring: full })).toEqual(full);
  });
});
