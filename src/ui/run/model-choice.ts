/**
 * The rules every in-page model choice of the settings step follows (the embedding and NLI
 * models; written so the in-browser language model's can too): what stops a choice before Start
 * (a setting that could only end in a run that fails on its model) and what will be downloaded.
 * Each model kind gives its names and its table of shipped and offered models.
 */
export interface ModelKind {
  /** How the text names the kind: 'embedding' ("the embedding model …"), 'NLI'. */
  name: string;
  /** The article before the name: 'an embedding model', 'a language model'. */
  article: 'a' | 'an';
  /** A model id to show as an example. */
  example: string;
  shipped: readonly string[];
  isShipped(model: string): boolean;
  /** Approximate download in MB: 0 when shipped, null when the table does not know the model. */
  approxMb(model: string): number | null;
}

/** Whether a model the app does not ship may be downloaded from the hub (the run's setting). */
export interface ModelDownload {
  allowDownload: boolean;
}

/** What makes the choice unworkable, in words; empty when it can work. */
export function modelChoiceProblems(kind: ModelKind, model: string, { allowDownload }: ModelDownload): string[] {
  const id = model.trim();
  if (!id) return [`Enter ${kind.article} ${kind.name} model id (e.g. ${kind.example}).`];
  if (!allowDownload && !kind.isShipped(id)) {
    return [
      `The ${kind.name} model "${id}" is not shipped with this app (shipped: ${kind.shipped.join(', ')}), and "Use shipped models only" is ticked: untick it to download the model from the Hugging Face hub, or choose a shipped model.`,
    ];
  }
  return [];
}

/** What happens to the model's files before the model is first used, in one sentence. */
export function modelDownloadText(kind: ModelKind, model: string, { allowDownload }: ModelDownload): string {
  const id = model.trim();
  if (kind.isShipped(id)) return `"${id}" is shipped with this app: nothing is downloaded.`;
  if (!allowDownload) return `"${id}" is not shipped with this app.`;
  const mb = kind.approxMb(id);
  const size = mb === null ? 'of a size this app does not know' : `of about ${mb} MB (approximate)`;
  return `"${id}" is downloaded from the Hugging Face hub on first use, ${size}, and kept by this browser for later runs.`;
}
