/**
 * Entailment clustering is comparable with the others in the agreement panel: the demo samples
 * clustered by the entailment clusterer on tiny-nli (what `semece cluster --method entailment`
 * writes) are read by the panel's agreementWithFile like any other method's file.
 */
import { readModelFile } from '../../../cli/model-files';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createEntailmentClusterer } from '../../../src/clustering/entailment';
import { classesToRowFields } from '../../../src/clustering/row-fields';
import { createTransformersDecider, TINY_NLI_MODEL } from '../../../src/clustering/text-pair-classification';
import { MemoryEntailmentCache } from '../../mock/memory-entailment-cache';
import { agreementWithFile } from '../../../src/pipeline/report-agreement';
import { demoDocument } from '../../e2e/report-fixture';
import { demoClusteredText } from '../ui/report/agreement-fixture';

describe('agreement with an entailment clustering', () => {
  test('the demo samples clustered by entailment compare question by question with the report', async () => {
    const clusterer = createEntailmentClusterer({
      decider: createTransformersDecider({ model: TINY_NLI_MODEL, localModelPath: path.resolve('public/models') + path.sep, allowRemoteModels: false, readFile: readModelFile }),
      cache: new MemoryEntailmentCache(),
    });
    const rows = demoClusteredText().split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
    const lines: string[] = [];
    for (const row of rows) {
      const answers = (row.answer_extracted as (string | null)[]).map((a) => a ?? '');
      const r = await clusterer.cluster(row.question, answers);
      if (!r.ok) throw new Error(r.error.message);
      lines.push(JSON.stringify({ ...row, ...classesToRowFields(r.value, answers.length) }));
    }
    const model = demoDocument().models[0];
    const a = agreementWithFile(model, lines.join('\n'), 'entailment.clustered.jsonl');
    expect(a.ok).toBe(true);
    if (!a.ok) return;
    expect(a.value.skipped).toEqual([]);
    expect(a.value.questions).toHaveLength(model.questions.length);
    expect(a.value.summary.meanRandIndex).toBeGreaterThan(0);
    expect(a.value.summary.meanRandIndex).toBeLessThanOrEqual(1);
  });
});
