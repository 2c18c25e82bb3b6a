import { expect, test } from 'vitest';
import { generationDownloadText } from '../../../../src/ui/run/generation-choice';

test('the download a language model choice means, said before anything is fetched', () => {
  expect(generationDownloadText('tiny-causal-lm')).toMatch(/shipped with this app: nothing is downloaded/);
  expect(generationDownloadText('HuggingFaceTB/SmolLM2-135M-Instruct')).toMatch(/about 200 MB from the Hugging Face hub/);
  expect(generationDownloadText('onnx-community/Qwen2.5-1.5B-Instruct')).toMatch(/about 1\.8 GB/);
  expect(generationDownloadText('someone/other-model')).toMatch(/download size unknown/);
});
