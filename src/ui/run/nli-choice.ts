/**
 * The NLI model choice of the settings step (entailment clustering), as plain rules
 * (model-choice.ts, as for the embedding model): what stops it before Start and what will be
 * downloaded.
 */
import { approxNliDownloadMb, DEFAULT_NLI_MODEL, isShippedNliModel, SHIPPED_NLI_MODELS } from '../../clustering/nli-models';
import { modelChoiceProblems, modelDownloadText, type ModelDownload, type ModelKind } from './model-choice';

const NLI: ModelKind = { name: 'NLI', article: 'an', example: DEFAULT_NLI_MODEL, shipped: SHIPPED_NLI_MODELS, isShipped: isShippedNliModel, approxMb: approxNliDownloadMb };

/** What makes the choice unworkable, in words; empty when it can work. */
export const nliProblems = (model: string, download: ModelDownload): string[] => modelChoiceProblems(NLI, model, download);

/** What happens to the model's files before the clustering starts, in one sentence. */
export const nliDownloadText = (model: string, download: ModelDownload): string => modelDownloadText(NLI, model, download);
