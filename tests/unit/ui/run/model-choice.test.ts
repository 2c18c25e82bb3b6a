import { describe, expect, test } from 'vitest';
import { modelChoiceProblems, modelDownloadText, type ModelKind } from '../../../../src/ui/run/model-choice';

const KIND: ModelKind = {
  name: 'test',
  article: 'a',
  example: 'org/example',
  shipped: ['tiny-a', 'tiny-b'],
  isShipped: (m) => ['tiny-a', 'tiny-b'].includes(m.trim()),
  approxMb: (m) => (m === 'org/known' ? 42 : m.startsWith('tiny-') ? 0 : null),
};

describe('a model choice’s rules, for any model kind', () => {
  test('an empty id, and a hub model with downloads off, are refused in words that name the kind and the shipped models', () => {
    expect(modelChoiceProblems(KIND, '  ', { allowDownload: true })).toEqual(['Enter a test model id (e.g. org/example).']);
    expect(modelChoiceProblems(KIND, ' org/known ', { allowDownload: false })).toEqual([
      'The test model "org/known" is not shipped with this app (shipped: tiny-a, tiny-b), and "Use shipped models only" is ticked: untick it to download the model from the Hugging Face hub, or choose a shipped model.',
    ]);
    expect(modelChoiceProblems(KIND, 'org/known', { allowDownload: true })).toEqual([]);
    expect(modelChoiceProblems(KIND, ' tiny-b ', { allowDownload: false })).toEqual([]);
  });

  test('what is downloaded: nothing when shipped, the size when known, that it is unknown otherwise', () => {
    expect(modelDownloadText(KIND, ' tiny-a ', { allowDownload: false })).toBe('"tiny-a" is shipped with this app: nothing is downloaded.');
    expect(modelDownloadText(KIND, 'org/known', { allowDownload: false })).toBe('"org/known" is not shipped with this app.');
    expect(modelDownloadText(KIND, 'org/known', { allowDownload: true })).toBe('"org/known" is downloaded from the Hugging Face hub on first use, of about 42 MB (approximate), and kept by this browser for later runs.');
    expect(modelDownloadText(KIND, 'org/other', { allowDownload: true })).toContain('of a size this app does not know');
  });
});
