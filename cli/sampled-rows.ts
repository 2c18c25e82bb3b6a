/**
 * The rows `semece sample --batch` writes once every sample is stored, one JSON line per question
 * in dataset order, made a chunk of questions at a time from the cache (one read per chunk), so
 * 40,000 questions × 50 replies never sit in memory as rows or as one output string. An adaptive
 * run's row holds the slots its rule used and its selection block (selection_samples).
 */
import type { SampleRequestSet } from '../src/batch/request-set.ts';
import { readQuestions, type SampleCache } from '../src/model/sample-cache.ts';
import type { Sample, SampledRow } from '../src/model/rows.ts';

/** Questions read from the cache and turned into rows at once. */
const ROWS_CHUNK = 500;

export async function* sampledRowLines(set: SampleRequestSet, cache: SampleCache, model: string): AsyncGenerator<string> {
  for (let from = 0; from < set.questions.length; from += ROWS_CHUNK) {
    const chunk = set.questions.slice(from, from + ROWS_CHUNK);
    const bases = await Promise.all(chunk.map((q) => set.keyBase(q)));
    const stored = await readQuestions(cache, bases, set.spec.n);
    for (let i = 0; i < chunk.length; i++) {
      const q = chunk[i];
      // Called once every sample is stored (missingSamples is 0): no hole to skip, every adaptive question stopped.
      const used = set.usedSamples(stored[i])!;
      const samples = used.samples as Sample[];
      const row: SampledRow = {
        id: q.id, question: q.question, gold_answer: q.answer, ...(q.aliases ? { gold_answer_aliases: q.aliases } : {}), model, n_samples: samples.length,
        ...(used.selection !== undefined ? { selection_samples: used.selection } : {}),
        results: samples.map((s) => s.raw), answer_extracted: samples.map((s) => s.answer), confidence_verbalized: samples.map((s) => s.confidence),
      };
      yield JSON.stringify(row);
    }
  }
}
