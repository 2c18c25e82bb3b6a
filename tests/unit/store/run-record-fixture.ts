import { emptyProgress, type RunRecord } from '../../../src/model/run-spec';

/** A small stored run (one question, exact clustering, alias grading) for the store's tests. */
export function runRecord(id: string, createdAt: string, extra: Partial<RunRecord> = {}): RunRecord {
  return {
    id,
    title: id,
    createdAt,
    updatedAt: createdAt,
    status: 'running',
    progress: emptyProgress(4),
    spec: {
      title: id,
      dataset: { name: 'd', source: 'test', questions: [{ id: 'q1', question: 'Capital of France?', answer: 'Paris' }] },
      models: [{ kind: 'openai', preset: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }],
      sampling: { n: 4, temperature: 1, maxTokens: 64, prompt: '{question}', concurrency: 2 },
      clustering: { method: 'exact' },
      grading: { method: 'alias' },
    },
    ...extra,
  };
}
