/**
 * What choosing an in-browser language model will download, in words, before anything is fetched:
 * the wizard's model fields and the review step say it the same way.
 */
import { approxGenerationDownloadMb, isShippedGenerationModel } from '../../providers/in-browser/models';

export function formatDownloadMb(approxMb: number): string {
  return approxMb >= 1000 ? `about ${(approxMb / 1000).toFixed(1)} GB` : `about ${approxMb} MB`;
}

export function generationDownloadText(model: string): string {
  const id = model.trim();
  if (isShippedGenerationModel(id)) return `"${id}" is shipped with this app: nothing is downloaded. It is a lookup table for tests, not a language model.`;
  const mb = approxGenerationDownloadMb(id);
  if (mb !== null) return `"${id}": ${formatDownloadMb(mb)} from the Hugging Face hub on the first run; this browser keeps it for later runs.`;
  return `"${id}": download size unknown; its files come from the Hugging Face hub on the first run (it needs ONNX weights in q4 and a chat template), and this browser keeps them.`;
}
