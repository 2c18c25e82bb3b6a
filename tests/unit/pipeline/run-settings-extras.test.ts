/** The report's settings record whether token logprobs and p(True) were asked, and reports without them open unchanged. */
import { describe, expect, test } from 'vitest';
import { reportSettings } from '../../../src/pipeline/run-settings';
import { parseReport } from '../../../src/formats/report-import';
import { reportToJson } from '../../../src/formats/report-export';
import { REPORT_VERSION } from '../../../src/model/report';
import type { RunSpec } from '../../../src/model/run-spec';
import { demoDocument } from '../../e2e/report-fixture';

const spec = (sampling: Partial<RunSpec['sampling']> = {}): RunSpec => ({
  title: 't',
  dataset: { name: 'd', source: 'test', questions: [] },
  models: [{ kind: 'openai', preset: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }],
  sampling: { n: 6, temperature: 1, maxTokens: 32, prompt: '{question}', concurrency: 1, ...sampling },
  clustering: { method: 'exact' },
  grading: { method: 'alias' },
});

describe('logprobs and p(True) in the report settings', () => {
  test('a run that asked neither records neither key (its settings, and their hash, as before)', () => {
    const s = reportSettings(spec({ logprobs: false }));
    expect('logprobs' in s).toBe(false);
    expect('pTrue' in s).toBe(false);
  });

  test('a run that asked both records both, p(True) with its settings', () => {
    const s = reportSettings(spec({ logprobs: true, pTrue: { samples: 4, brainstorm: true } }));
    expect(s.logprobs).toBe(true);
    expect(s.pTrue).toEqual({ samples: 4, brainstorm: true });
  });

  test('they survive export and import, without a new report version', () => {
    const demo = demoDocument();
    const doc = { ...demo, settings: { ...demo.settings, logprobs: true, pTrue: { samples: 3, brainstorm: false } } };
    const back = parseReport(reportToJson(doc));
    expect(back.ok).toBe(true);
    expect(back.ok && back.value.settings.logprobs).toBe(true);
    expect(back.ok && back.value.settings.pTrue).toEqual({ samples: 3, brainstorm: false });
    expect(back.ok && back.value.version).toBe(REPORT_VERSION);
  });

  test('a report without them opens unchanged; a malformed p(True) setting is refused', () => {
    const demo = demoDocument();
    const plain = parseReport(reportToJson(demo));
    expect(plain.ok && plain.value.settings).toEqual(demo.settings);
    const bad = parseReport(reportToJson({ ...demo, settings: { ...demo.settings, pTrue: { samples: 0, brainstorm: false } } }));
    expect(bad.ok).toBe(false);
  });
});
