/**
 * The NLI model choice of the settings step (entailment clustering), as plain rules: what stops it
 * before Start and what will be downloaded. Kept beside embedding-choice.ts, whose rules it follows.
 */
import { approxNliDownloadMb, isShippedNliModel, SHIPPED_NLI_MODELS, DEFAULT_NLI_MODEL } from '../../clustering/nli-models';

/** What makes the choice unworkable, in words; empty when it can work. */
export function nliProblems(model: string, allowDownload: boolean): string[] {
  const id = model.trim();
  if (!id) return [`Enter an NLI model id (e.g. ${DEFAULT_NLI_MODEL}).`];
  if (!allowDownload && !isShippedNliModel(id)) {
    return [
      `The NLI model "${id}" is not shipped with this app (shipped: ${SHIPPED_NLI_MODELS.join(', ')}), and "Use shipped models only" is ticked: untick it to download the model from the Hugging Face hub, or choose a shipped model.`,
    ];
  }
  return [];
}

/** What happens to the model's files before the clustering starts, in one sentence. */
export function nliDownloadText(model: string, allowDownload: boolean): string {
  const id = model.trim();
  if (isShippedNliModel(id)) return `"${id}" is shipped with this app: nothing is downloaded.`;
  if (!allowDownload) return `"${id}" is not shipped with this app.`;
  const mb = approxNliDownloadMb(id);
  const size = mb === null ? 'of a size this app does not know' : `of about ${mb} MB (approximate)`;
  return `"${id}" is downloaded from the Hugging Face hub on first use, ${size}, and kept by this browser for later runs.`;
}
