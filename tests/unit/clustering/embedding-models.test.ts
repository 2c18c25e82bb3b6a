import { readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { approxDownloadMb, DEFAULT_EMBEDDING_MODEL, isShippedEmbeddingModel, OFFERED_EMBEDDING_MODELS, SHIPPED_EMBEDDING_MODELS } from '../../../src/clustering/embedding-models';
import { SHIPPED_NLI_MODELS } from '../../../src/clustering/nli-models';
import { SHIPPED_GENERATION_MODELS } from '../../../src/providers/in-browser/models';

describe('embedding models the app names', () => {
  test('the shipped lists (embedding, NLI, language models) are what public/models/ holds', () => {
    const folders = readdirSync(new URL('../../../public/models/', import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    expect([...SHIPPED_EMBEDDING_MODELS, ...SHIPPED_NLI_MODELS, ...SHIPPED_GENERATION_MODELS].sort()).toEqual(folders.sort());
    expect(isShippedEmbeddingModel(DEFAULT_EMBEDDING_MODEL)).toBe(false);
  });

  test('every offered model has a size: 0 exactly for the shipped ones', () => {
    expect(OFFERED_EMBEDDING_MODELS.some((m) => m.id === DEFAULT_EMBEDDING_MODEL)).toBe(true);
    for (const m of OFFERED_EMBEDDING_MODELS) expect(m.approxMb === 0, m.id).toBe(isShippedEmbeddingModel(m.id));
    expect(approxDownloadMb(DEFAULT_EMBEDDING_MODEL)).toBe(23);
    expect(approxDownloadMb('someone/unknown')).toBeNull();
  });
});
