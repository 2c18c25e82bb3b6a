/**
 * The embedding model choice of the settings step, as plain rules (model-choice.ts): what stops
 * it before Start (a setting that could only end in a run with nothing clustered) and what will
 * be downloaded.
 */
import { approxDownloadMb, DEFAULT_EMBEDDING_MODEL, isShippedEmbeddingModel, SHIPPED_EMBEDDING_MODELS } from '../../clustering/embedding-models';
import { modelChoiceProblems, modelDownloadText, type ModelDownload, type ModelKind } from './model-choice';

const EMBEDDING: ModelKind = { name: 'embedding', article: 'an', example: DEFAULT_EMBEDDING_MODEL, shipped: SHIPPED_EMBEDDING_MODELS, isShipped: isShippedEmbeddingModel, approxMb: approxDownloadMb };

/** What makes the choice unworkable, in words; empty when it can work. */
export const embeddingProblems = (model: string, download: ModelDownload): string[] => modelChoiceProblems(EMBEDDING, model, download);

/** What happens to the model's files before the clustering starts, in one sentence. */
export const embeddingDownloadText = (model: string, download: ModelDownload): string => modelDownloadText(EMBEDDING, model, download);
