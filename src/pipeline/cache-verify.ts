/**
 * "Verify from this browser's cache": a saved run's report checked against the samples this
 * browser still holds for it, read back as the report page reads one question's samples
 * (question-samples.ts). Each question's samples (answer and stated confidence, in order) from
 * the cache replace the report's in the manifest's hash (model/report-manifest.ts); a hash that
 * then differs from the manifest's names the question whose stored data differ from the report.
 * The classes and grade hashed are the report's own: the cache holds no grades for exact match
 * and alias grading (both are recomputed, not stored), so what is read back is the samples.
 */
import type { ReportDocument } from '../model/report';
import { canonicalJson, hashText, hashedQuestion } from '../model/report-manifest';
import type { RunSpec } from '../model/run-spec';
import { questionSamples, type QuestionSamples } from './question-samples';

type Caches = Parameters<typeof questionSamples>[3];

export type CacheVerifyOutcome =
  | { kind: 'match'; questions: number }
  | { kind: 'differ'; questions: { model: string; id: string; why: string }[]; checked: number }
  | { kind: 'error'; message: string };

export async function verifyFromCaches(doc: ReportDocument, spec: RunSpec, caches: Caches): Promise<CacheVerifyOutcome> {
  if (!doc.manifest) return { kind: 'error', message: 'This report has no manifest (it was made before reports carried one), so there is nothing to check the cache against.' };
  const differ: { model: string; id: string; why: string }[] = [];
  let checked = 0;
  for (const [i, m] of doc.models.entries()) {
    const hashes = doc.manifest.models[i]?.questions ?? {};
    for (const q of m.questions) {
      if (!q.samples) continue;
      const read: QuestionSamples = await questionSamples(spec, m.model, q.id, caches);
      checked++;
      if (!read.found) {
        differ.push({ model: m.model, id: q.id, why: read.why });
        continue;
      }
      const fromCache = { ...q, samples: read.samples.map((s, j) => ({ ...q.samples![j], answer: s.answer, confidence: s.confidence })) };
      const same = read.samples.length === q.samples.length && (await hashText(canonicalJson(hashedQuestion(fromCache)))) === hashes[q.id];
      if (!same) differ.push({ model: m.model, id: q.id, why: "the samples in this browser's cache differ from the report's" });
    }
  }
  if (checked === 0) return { kind: 'error', message: 'This report keeps no samples, so its questions cannot be checked against the cache.' };
  return differ.length === 0 ? { kind: 'match', questions: checked } : { kind: 'differ', questions: differ, checked };
}
