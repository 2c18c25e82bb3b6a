/** A run's questions keep their dataset columns (category, catalogue slice columns) into the report's question fields. */
import { expect, test } from 'vitest';
import { scoreRun } from '../../../src/pipeline/run-scoring';
import { reportSettings } from '../../../src/pipeline/run-settings';
import { questionFieldsById } from '../../../src/model/question-fields';
import type { ClusteredRow, GradedRow, Question } from '../../../src/model/rows';
import type { RunSpec } from '../../../src/model/run-spec';

test('the fields given by question id reach ReportQuestion.fields; questions without any have none', () => {
  const questions: Question[] = [
    { id: 'a', question: 'A?', answer: 'x', category: 'history', fields: { s_pop: 120 } },
    { id: 'b', question: 'B?', answer: 'x' },
  ];
  const clustered: ClusteredRow[] = questions.map((q) => ({
    id: q.id, question: q.question, gold_answer: 'x', model: 'm', n_samples: 2, results: ['r', 'r'], answer_extracted: ['x', 'y'],
    confidence_verbalized: [0.9, 0.4], n_clusters: 2, cluster_labels: ['x', 'y'], cluster_assignments: [0, 1], cluster_sizes: [1, 1], modal_cluster: 0, modal_cluster_label: 'x',
  }));
  const graded: GradedRow[] = questions.map((q) => ({ id: q.id, model: 'm', question: q.question, gold_answer: 'x', modal_cluster_label: 'x', grade: 'CORRECT', Y: 1 }));
  const spec: RunSpec = {
    title: 't', dataset: { name: 'd', source: 'test', questions },
    models: [{ kind: 'openai', preset: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }],
    sampling: { n: 2, temperature: 1, maxTokens: 32, prompt: '{question}', concurrency: 1 },
    clustering: { method: 'exact' }, grading: { method: 'alias' },
  };
  const doc = scoreRun(
    { title: 't', dataset: { name: 'd', questions: 2 }, settings: reportSettings(spec), models: [{ model: 'm', provider: 'openai', clustered, graded, excluded: [], overridden: [] }], fields: questionFieldsById(questions) },
    { samples: 'none', smooth: false, B: 10 },
  );
  expect(doc.models[0].questions.map((q) => q.fields)).toEqual([{ category: 'history', s_pop: 120 }, undefined]);
});
