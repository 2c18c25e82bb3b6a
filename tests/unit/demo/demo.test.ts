import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEMO_QUESTIONS, classDistribution, demoDataset } from '../../../src/demo/questions';
import { DEMO_MODELS, simulateDemoRows, toJsonl } from '../../../src/demo/demo-rows';
import { DEMO_SEED, demoFileStem, type DemoManifest } from '../../../src/demo/manifest';
import { defaultRng } from '../../../src/core/rng';

const DEMO_DIR = path.resolve('public/demo');

describe('demo question set', () => {
  test('40–80 questions with unique ids, a reference answer and a correct plausible class', () => {
    expect(DEMO_QUESTIONS.length).toBeGreaterThanOrEqual(40);
    expect(DEMO_QUESTIONS.length).toBeLessThanOrEqual(80);
    expect(new Set(DEMO_QUESTIONS.map((q) => q.id)).size).toBe(DEMO_QUESTIONS.length);
    for (const q of DEMO_QUESTIONS) {
      expect(q.question.trim().length, q.id).toBeGreaterThan(10);
      expect(q.answer.trim().length, q.id).toBeGreaterThan(0);
      expect(q.plausible.filter((a) => a.correct).length, `${q.id} has one correct class`).toBe(1);
      expect(new Set(q.plausible.map((a) => a.label)).size, `${q.id} labels distinct`).toBe(q.plausible.length);
      for (const a of q.plausible) {
        expect(a.weight, q.id).toBeGreaterThan(0);
        expect(a.variants.length, q.id).toBeGreaterThan(0);
      }
    }
  });

  test('spans easy and hard questions', () => {
    const cStar = DEMO_QUESTIONS.map((q) => Math.max(...classDistribution(q)));
    expect(cStar.filter((c) => c >= 0.9).length).toBeGreaterThanOrEqual(10);
    expect(cStar.filter((c) => c < 0.6).length).toBeGreaterThanOrEqual(8);
  });

  test('the wizard dataset carries the questions without the simulation lists', () => {
    expect(demoDataset.source).toBe('demo');
    expect(demoDataset.questions.length).toBe(DEMO_QUESTIONS.length);
    expect(Object.keys(demoDataset.questions[0])).not.toContain('plausible');
  });

  test('classDistribution normalises, flattens and swaps as documented', () => {
    const q = DEMO_QUESTIONS.find((x) => x.id === 'demo-33')!; // Ankara 82, Istanbul 18
    expect(classDistribution(q)).toEqual([0.82, 0.18]);
    const flat = classDistribution(q, { sharpness: 0.5 });
    expect(flat[0]).toBeCloseTo(Math.sqrt(82) / (Math.sqrt(82) + Math.sqrt(18)), 12);
    expect(classDistribution(q, { sharpness: 1, swapTop: true })).toEqual([0.18, 0.82]);
  });
});

describe('simulated demo rows', () => {
  const model = DEMO_MODELS[0];
  const rng = defaultRng(DEMO_SEED);
  const rows = simulateDemoRows(DEMO_QUESTIONS, model, () => rng.random());

  test('are consistent clustered and graded rows in the authors’ layout', () => {
    expect(rows.clustered.length).toBe(DEMO_QUESTIONS.length);
    for (const [i, r] of rows.clustered.entries()) {
      expect(r.results.length).toBe(r.n_samples);
      expect(r.answer_extracted.length).toBe(r.n_samples);
      expect(r.confidence_verbalized.length).toBe(r.n_samples);
      expect(r.cluster_labels.length).toBe(r.n_clusters);
      expect(r.cluster_sizes.reduce((a, b) => a + b, 0)).toBe(r.n_samples);
      r.cluster_sizes.forEach((size, k) => expect(r.cluster_assignments.filter((a) => a === k).length).toBe(size));
      // classes listed by first appearance, as a judge lists them
      const firsts = r.cluster_sizes.map((_, k) => r.cluster_assignments.indexOf(k));
      expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
      expect(r.modal_cluster).toBe(r.cluster_sizes.indexOf(Math.max(...r.cluster_sizes)));
      expect(r.modal_cluster_label).toBe(r.cluster_labels[r.modal_cluster]);
      for (const c of r.confidence_verbalized) if (c !== null) expect(c >= 0 && c <= 1).toBe(true);
      const g = rows.graded[i];
      expect(g.id).toBe(r.id);
      const q = DEMO_QUESTIONS[i];
      const correct = q.plausible.find((a) => a.label === r.modal_cluster_label)!.correct;
      expect(g.Y).toBe(correct ? 1 : 0);
      expect(g.grade).toBe(correct ? 'CORRECT' : 'INCORRECT');
    }
  });

  test('replies carry the answer and confidence lines the extractor reads', () => {
    const r = rows.clustered[0];
    r.results.forEach((raw, i) => {
      expect(raw).toContain(`Answer: ${r.answer_extracted[i]}`);
      if (r.confidence_verbalized[i] !== null) expect(raw).toContain(`Confidence: ${Math.round(r.confidence_verbalized[i]! * 100)}%`);
    });
    expect(rows.clustered.some((x) => x.confidence_verbalized.includes(null))).toBe(true);
  });

  test('Sem1 tracks c* on easy questions: the simulation follows π', () => {
    const easy = rows.clustered.filter((_, i) => Math.max(...classDistribution(DEMO_QUESTIONS[i])) >= 0.95);
    const meanSem1 = easy.reduce((s, r) => s + Math.max(...r.cluster_sizes) / r.n_samples, 0) / easy.length;
    const meanC = easy.reduce((s, r) => s + Math.max(...classDistribution(DEMO_QUESTIONS.find((q) => q.id === r.id)!)), 0) / easy.length;
    expect(Math.abs(meanSem1 - meanC)).toBeLessThan(0.03);
  });
});

describe('public/demo files', () => {
  const manifest = JSON.parse(readFileSync(path.join(DEMO_DIR, 'manifest.json'), 'utf8')) as DemoManifest;

  test('are labelled as demo data and list every demo model', () => {
    expect(manifest.note).toMatch(/Demo data/);
    expect(manifest.models.map((m) => m.model)).toEqual(DEMO_MODELS.map((m) => m.name));
    for (const m of manifest.models) expect(m.model).toMatch(/simulated/);
  });

  test('are exactly what scripts/make-demo.ts produces (regenerate after editing the questions)', () => {
    DEMO_MODELS.forEach((model, i) => {
      const g = defaultRng(DEMO_SEED + i);
      const rows = simulateDemoRows(DEMO_QUESTIONS, model, () => g.random());
      const stem = demoFileStem(model.name);
      expect(readFileSync(path.join(DEMO_DIR, `${stem}.clustered.jsonl`), 'utf8')).toBe(toJsonl(rows.clustered));
      expect(readFileSync(path.join(DEMO_DIR, `${stem}.graded.jsonl`), 'utf8')).toBe(toJsonl(rows.graded));
    });
  });
});
