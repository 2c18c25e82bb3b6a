import { describe, expect, it } from 'vitest';
import { abstention, abstentionSpread } from '../../../src/core/abstention';
import { thresholdDocument, thresholdFileName, thresholdJson } from '../../../src/formats/abstention-threshold';
import { parseThresholdDocument } from '../../../src/formats/abstention-threshold-schema';

const conf = [0.9, 0.3, 0.9, 0.7, 0.8, 0.6, 0.6, 0.8, 0.5, 0.95, 0.6, 0.4];
const y = [1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 0];
const source = { report: { title: 'Fixture', createdAt: '2026-01-01T00:00:00.000Z', dataset: 'twelve' }, model: 'org/model one', signal: 'sem2' as const };

describe('the abstention threshold document', () => {
  it('is read back equal to what was written, every bit, with its guarantee and the spread over splits', () => {
    // 400 questions: 200 at 0.9 (4 wrong), 200 at 0.5 (half wrong); target 10%.
    const c = [...Array(200).fill(0.9), ...Array(200).fill(0.5)];
    const yy = c.map((v, i) => (v === 0.9 ? (i % 50 === 7 ? 0 : 1) : i % 2));
    const result = abstention(c, yy, { target: 0.1, seed: 0 });
    const doc = thresholdDocument(source, result, abstentionSpread(c, yy, { target: 0.1, seed: 0 }));
    expect(doc.threshold).toBe(0.9);
    expect(doc.split).toEqual({ seed: 0, selection: 200, evaluation: 200 });
    expect(doc.guarantee).toEqual({ delta: 0.05, tried: 2, bound: result.choice.bound });
    expect(doc.spread!.splits).toBe(20);
    expect(doc.rule).toMatch(/Clopper-Pearson upper bound/);
    const back = parseThresholdDocument(thresholdJson(doc));
    expect(back).toEqual({ ok: true, value: doc });
  });

  it('reads a file written before the guarantee (no guarantee, no spread) as it was', () => {
    const doc = thresholdDocument(source, abstention(conf, y, { target: 0.2, seed: 0 }));
    const old = JSON.parse(thresholdJson(doc));
    delete old.guarantee;
    old.threshold = 0.6;
    const back = parseThresholdDocument(JSON.stringify(old));
    expect(back.ok && back.value.threshold).toBe(0.6);
    expect(back.ok && back.value.guarantee).toBeUndefined();
  });

  it('writes a threshold of null and an undefined error as null, and reads them back as null and NaN', () => {
    const doc = thresholdDocument(source, abstention([0.9, 0.5, 0.9, 0.5], [0, 1, 0, 1], { target: 0, seed: 0 }));
    const json = JSON.parse(thresholdJson(doc));
    expect(json.threshold).toBeNull();
    expect(json.evaluation.error).toEqual([null, null, null]);
    const back = parseThresholdDocument(thresholdJson(doc));
    expect(back.ok && back.value.threshold).toBeNull();
    expect(back.ok && back.value.evaluation.error.every(Number.isNaN)).toBe(true);
  });

  it('is named after the model and signal, safe for a file system', () => {
    expect(thresholdFileName('openai/gpt-4o mini', 'sem2')).toBe('threshold-openai-gpt-4o-mini-sem2.json');
    expect(thresholdFileName('///', 'sem1')).toBe('threshold-model-sem1.json');
  });
});
