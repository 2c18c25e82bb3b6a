/**
 * "Verify from this browser's cache": a saved run's report checked against the samples this
 * browser still holds for it, read back as the report page reads one question's samples
 * (question-samples.ts). Each question's samples (answer and stated confidence, in order) from
 * the cache replace the report's in the manifest's hash (model/report-manifest.ts); a hash that
 * then differs from the manifest's names the question whose stored data differ from the report.
 * The classes and grade hashed are the report's own: the cache holds no grades for exact match
 * and alias grading (both are recomputed, not stored), so what is read back is the samples.
 *
 * A grade a person overrode on the report page (the question's `overridden` flag) changed the
 * report after its manifest was made: such a question's samples match when the hash agrees with
 * the report's grade or with one of the other grades (the one the run gave, which the manifest
 * then names). It is listed as an override, not as a difference; its samples are checked all the same.
 */
import type { ReportDocument, ReportQuestion } from '../model/report';
import { canonicalJson, hashText, hashedQuestion } from '../model/report-manifest';
import { gradeToY, type Grade } from '../model/rows';
import type { RunSpec } from '../model/run-spec';
import { questionSamples, type QuestionSamples } from './question-samples';

type Caches = Parameters<typeof questionSamples>[3];

/** A question whose grade a person overrode: the grade the manifest was made with (`from`, when it was another), the report's (`to`). */
export interface CacheVerifyOverride {
  model: string;
  id: string;
  from?: Grade;
  to: Grade;
}

export type CacheVerifyOutcome =
  | { kind: 'match'; questions: number; overrides: CacheVerifyOverride[] }
  | { kind: 'differ'; questions: { model: string; id: string; why: string }[]; checked: number; overrides: CacheVerifyOverride[] }
  | { kind: 'error'; message: string };

const GRADES: readonly Grade[] = ['CORRECT', 'INCORRECT', 'NOT_ATTEMPTED'];

const hashOf = (q: ReportQuestion) => hashText(canonicalJson(hashedQuestion(q)));

/**
 * Whether the question (its samples read from the cache) has the manifest's hash: as it is, or,
 * when a person overrode its grade, with the grade the manifest was made with (returned).
 */
async function manifestMatch(q: ReportQuestion, hash: string | undefined): Promise<{ same: boolean; from?: Grade }> {
  if ((await hashOf(q)) === hash) return { same: true };
  if (!q.overridden) return { same: false };
  for (const grade of GRADES) {
    if (grade !== q.grade && (await hashOf({ ...q, grade, correct: gradeToY(grade) })) === hash) return { same: true, from: grade };
  }
  return { same: false };
}

export async function verifyFromCaches(doc: ReportDocument, spec: RunSpec, caches: Caches): Promise<CacheVerifyOutcome> {
  if (!doc.manifest) return { kind: 'error', message: 'This report has no manifest (it was made before reports carried one), so there is nothing to check the cache against.' };
  const differ: { model: string; id: string; why: string }[] = [];
  const overrides: CacheVerifyOverride[] = [];
  let checked = 0;
  for (const [i, m] of doc.models.entries()) {
    const hashes = doc.manifest.models[i]?.questions ?? {};
    for (const q of m.questions) {
      if (!q.samples) continue;
      const read: QuestionSamples = await questionSamples(spec, m.model, q.id, caches);
      checked++;
      const override: CacheVerifyOverride | undefined = q.overridden ? { model: m.model, id: q.id, to: q.grade } : undefined;
      if (override) overrides.push(override);
      if (!read.found) {
        differ.push({ model: m.model, id: q.id, why: read.why });
        continue;
      }
      const fromCache = { ...q, samples: read.samples.map((s, j) => ({ ...q.samples![j], answer: s.answer, confidence: s.confidence })) };
      const match = read.samples.length === q.samples.length ? await manifestMatch(fromCache, hashes[q.id]) : { same: false };
      if (override && match.from) override.from = match.from;
      if (!match.same) differ.push({ model: m.model, id: q.id, why: "the samples in this browser's cache differ from the report's" });
    }
  }
  if (checked === 0) return { kind: 'error', message: 'This report keeps no samples, so its questions cannot be checked against the cache.' };
  return differ.length === 0 ? { kind: 'match', questions: checked, overrides } : { kind: 'differ', questions: differ, checked, overrides };
}
