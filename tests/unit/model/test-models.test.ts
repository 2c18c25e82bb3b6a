/**
 * A report of a run on the repository's toy models (tiny-causal-lm, tiny-nli, tiny-embedder) is
 * marked `testModel`, whether the app's run made it or `semece score --report` did from rows that
 * name the model; a report of any other model is not.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import score from '../../../cli/commands/score';
import { parseReport } from '../../../src/formats/report-import';
import { TEST_MODEL_IDS, testModelsNamedIn, testModelsUsed } from '../../../src/model/test-models';
import { TINY_NLI_MODEL } from '../../../src/clustering/nli-models';
import { TINY_EMBEDDING_MODEL } from '../../../src/clustering/embedding-models';
import { TINY_CAUSAL_MODEL } from '../../../src/providers/in-browser/models';
import { buildReport, importedSettings } from '../../../src/pipeline/score-documents';
import { clusteringSetting } from '../../../src/pipeline/run-settings';
import type { ModelReport } from '../../../src/model/report';
import { storedReportSummary } from '../../../src/store/report-records';

describe('the one list of toy models', () => {
  test('the clusterers and the in-browser provider name their toy models from it', () => {
    expect(TEST_MODEL_IDS).toEqual([TINY_CAUSAL_MODEL, TINY_NLI_MODEL, TINY_EMBEDDING_MODEL]);
  });

  test('a name is found whole, alone, after a provider or folder, or leading a detail; never inside a longer name', () => {
    expect(testModelsNamedIn('tiny-causal-lm')).toEqual(['tiny-causal-lm']);
    expect(testModelsNamedIn('in-browser/tiny-causal-lm')).toEqual(['tiny-causal-lm']);
    expect(testModelsNamedIn("tiny-nli, mutual entailment with each class's first member")).toEqual(['tiny-nli']);
    expect(testModelsNamedIn('judge in-browser/tiny-causal-lm')).toEqual(['tiny-causal-lm']);
    expect(testModelsNamedIn('tiny-nli-v2')).toEqual([]);
    expect(testModelsNamedIn('my-tiny-nli')).toEqual([]);
    expect(testModelsNamedIn('openai/gpt-4o-mini')).toEqual([]);
    expect(testModelsUsed(['in-browser/tiny-causal-lm', 'tiny-nli, mutual entailment', undefined])).toEqual(['tiny-causal-lm', 'tiny-nli']);
  });
});

const model = (name: string): ModelReport => ({ model: name, questions: [], excludedQuestions: [] }) as unknown as ModelReport;

describe('buildReport marks a report of a toy model', () => {
  const settings = (clusteringModel: string) => ({ ...importedSettings({}, 4), clustering: clusteringSetting({ method: 'entailment', model: clusteringModel }) });

  test('the generator or the clusterer being a toy model marks it, with the names', () => {
    const meta = { title: 't', dataset: { name: 'd' } };
    expect(buildReport([model('in-browser/tiny-causal-lm')], { ...meta, settings: settings('tiny-nli') }).testModel).toEqual(['tiny-causal-lm', 'tiny-nli']);
    expect(buildReport([model('openai/gpt-4o-mini')], { ...meta, settings: settings('tiny-nli') }).testModel).toEqual(['tiny-nli']);
  });

  test('a saved report of a toy model is listed as one', () => {
    const meta = { title: 't', dataset: { name: 'd' } };
    const marked = buildReport([model('in-browser/tiny-causal-lm')], { ...meta, settings: settings('tiny-nli') });
    const real = buildReport([model('openai/gpt-4o-mini')], { ...meta, settings: settings('Xenova/nli-deberta-v3-xsmall') });
    expect(storedReportSummary('a', { document: marked, savedAt: '2026-01-01T00:00:00.000Z' }).testModel).toBe(true);
    expect(storedReportSummary('b', { document: real, savedAt: '2026-01-01T00:00:00.000Z' })).not.toHaveProperty('testModel');
  });

  test('a real model, or the demo, is not marked', () => {
    const meta = { title: 't', dataset: { name: 'd' } };
    expect(buildReport([model('openai/gpt-4o-mini')], { ...meta, settings: settings('Xenova/nli-deberta-v3-xsmall') })).not.toHaveProperty('testModel');
    expect(buildReport([model('tiny-causal-lm')], { ...meta, settings: settings('x'), demo: true })).not.toHaveProperty('testModel');
  });
});

describe('semece score --report', () => {
  let dir: string;
  const rows = (name: string) =>
    [
      { id: 'a', question: 'Capital of France?', gold_answer: 'Paris', model: name, n_samples: 2, results: ['r', 'r'], answer_extracted: ['Paris', 'Paris'], confidence_verbalized: [0.9, 0.9], n_clusters: 1, cluster_labels: ['Paris'], cluster_assignments: [0, 0], cluster_sizes: [2], modal_cluster: 0, modal_cluster_label: 'Paris' },
      { id: 'b', question: 'Moons of Mars?', gold_answer: '2', model: name, n_samples: 2, results: ['r', 'r'], answer_extracted: ['3', '2'], confidence_verbalized: [0.5, 0.5], n_clusters: 2, cluster_labels: ['3', '2'], cluster_assignments: [0, 1], cluster_sizes: [1, 1], modal_cluster: 0, modal_cluster_label: '3' },
    ];
  const graded = [{ id: 'a', grade: 'CORRECT', Y: 1 }, { id: 'b', grade: 'INCORRECT', Y: 0 }];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'semece-test-model-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function reportFor(name: string) {
    const stem = name.replace(/\W/g, '_');
    await writeFile(join(dir, `${stem}.c.jsonl`), rows(name).map((r) => JSON.stringify(r)).join('\n') + '\n');
    await writeFile(join(dir, `${stem}.g.jsonl`), graded.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const report = join(dir, `${stem}.report.json`);
    const code = await score(['--clustered', join(dir, `${stem}.c.jsonl`), '--graded', join(dir, `${stem}.g.jsonl`), '--B', '10', '--report', report], { out: () => {}, err: () => {}, env: {} });
    expect(code).toBe(0);
    const parsed = parseReport(await readFile(report, 'utf8'));
    if (!parsed.ok) throw new Error(parsed.error.message);
    return parsed.value;
  }

  test("rows whose model is 'tiny-causal-lm' give a report marked as a test model, kept through the schema", async () => {
    expect((await reportFor('tiny-causal-lm')).testModel).toEqual(['tiny-causal-lm']);
  });

  test('rows of another model are not marked', async () => {
    expect((await reportFor('gpt-4o-mini')).testModel).toBeUndefined();
  });
});
