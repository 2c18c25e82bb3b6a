import { describe, expect, it } from 'vitest';
import { abstention } from '../../../src/core/abstention';
import { thresholdDocument, thresholdFileName, thresholdJson } from '../../../src/formats/abstention-threshold';
import { parseThresholdDocument } from '../../../src/formats/abstention-threshold-schema';

const conf = [0.9, 0.3, 0.9, 0.7, 0.8, 0.6, 0.6, 0.8, 0.5, 0.95, 0.6, 0.4];
const y = [1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 0];
const source = { report: { title: 'Fixture', createdAt: '2026-01-01T00:00:00.000Z', dataset: 'twelve' }, model: 'org/model one', signal: 'sem2' as const };

describe('the abstention threshold schema', () => {
  it('names the first bad field', () => {
    const doc = JSON.parse(thresholdJson(thresholdDocument(source, abstention(conf, y, { target: 0.2, seed: 0 }))));
    const bad = (patch: (d: typeof doc) => void) => {
      const d = structuredClone(doc);
      patch(d);
      const r = parseThresholdDocument(JSON.stringify(d));
      return r.ok ? 'accepted' : r.error.message;
    };
    expect(bad((d) => (d.target = 1.5))).toMatch(/^target: expected a number in \[0,1\], got 1.5/);
    expect(bad((d) => (d.signal = 'sem3'))).toMatch(/^signal: expected one of sem1/);
    expect(bad((d) => (d.evaluation.coverage[1] = 2))).toMatch(/^evaluation\.coverage\[1\]/);
    expect(bad((d) => (d.evaluation.correct = 5))).toMatch(/^evaluation: counts do not add up/);
    expect(bad((d) => delete d.split.seed)).toMatch(/^split\.seed: missing/);
    expect(bad((d) => (d.version = 2))).toMatch(/^version: expected 1/);
  });

  it('refuses what is not a threshold file, saying what it is', () => {
    expect(parseThresholdDocument('{').ok).toBe(false);
    const r = parseThresholdDocument('{"format":"semece-report"}');
    expect(!r.ok && r.error.message).toMatch(/Not a Sem-ECE abstention threshold/);
    const big = parseThresholdDocument(' '.repeat(70 * 1024));
    expect(!big.ok && big.error.message).toMatch(/at most/);
  });
});
