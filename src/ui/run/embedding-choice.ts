/**
 * The embedding model choice of the settings step, as plain rules: what stops it before Start
 * (a setting that could only end in a run with nothing clustered) and what will be downloaded.
 */
import { approxDownloadMb, isShippedEmbeddingModel, SHIPPED_EMBEDDING_MODELS } from '../../clustering/embedding-models';

/** What makes the choice unworkable, in words; empty when it can work. */
export function embeddingProblems(model: string, allowDownload: boolean): string[] {
  const id = model.trim();
  if (!id) return ['Enter an embedding model id (e.g. Xenova/all-MiniLM-L6-v2).'];
  if (!allowDownload && !isShippedEmbeddingModel(id)) {
    return [
      `The embedding model "${id}" is not shipped with this app (shipped: ${SHIPPED_EMBEDDING_MODELS.join(', ')}), and "Use shipped models only" is ticked: untick it to download the model from the Hugging Face hub, or choose a shipped model.`,
    ];
  }
  return [];
}

/** What happens to the model's files before the clustering starts, in one sentence. */
export function embeddingDownloadText(model: string, allowDownload: boolean): string {
  const id = model.trim();
  if (isShippedEmbeddingModel(id)) return `"${id}" is shipped with this app: nothing is downloaded.`;
  if (!allowDownload) return `"${id}" is not shipped with this app.`;
  const mb = approxDownloadMb(id);
  const size = mb === null ? 'of a size this app does not know' : `of about ${mb} MB (approximate)`;
  return `"${id}" is downloaded from the Hugging Face hub on first use, ${size}, and kept by this browser for later runs.`;
}
