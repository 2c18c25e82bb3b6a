import { expect, test } from 'vitest';
import { auditLessonQuestions, estimatesOf, LESSON_SAMPLES } from '../../../../src/ui/classroom/audit-lesson';

test('the lesson: five questions, two wrong merges, and a wrong merge reads Sem1 and Sem2 no lower than the true classes', () => {
  const questions = auditLessonQuestions(1);
  expect(questions).toHaveLength(5);
  expect(questions.filter((q) => q.wrongMerge)).toHaveLength(2);
  for (const q of questions) {
    expect(q.answers).toHaveLength(LESSON_SAMPLES);
    const auto = estimatesOf(q.automatic, LESSON_SAMPLES);
    const truth = estimatesOf(q.truth, LESSON_SAMPLES);
    if (!q.wrongMerge) {
      expect(auto).toEqual(truth);
      continue;
    }
    // Merging the modal meaning with another swells the modal class.
    expect(auto.sem1).toBeGreaterThan(truth.sem1);
    expect(auto.sem2).toBeGreaterThanOrEqual(truth.sem2);
    expect(auto.sem1).toBe(q.automatic[0].length / LESSON_SAMPLES);
  }
  // The same seed, the same samples.
  expect(auditLessonQuestions(1)).toEqual(questions);
});
