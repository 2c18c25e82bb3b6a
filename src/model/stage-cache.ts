/**
 * The port of the caches after sampling: clusterings and computed grades, each under a hash of
 * that stage's inputs and settings (pipeline/stage-cache-keys.ts), so a changed clusterer misses
 * the clustering and grading caches and nothing upstream. The browser's store implements it over
 * IndexedDB (store/idb-stage-cache.ts); the stages (pipeline/, batch/) see only this interface.
 */
import type { AnswerSimilarity, Grade, SemanticClass, StageError } from './rows';

/** The classes of one question's samples under one clusterer's settings. */
export interface StoredClustering {
  key: string;
  /** `similarity`: the answers' pairwise similarity where the clusterer measured one (absent in entries stored before it was kept). */
  result: { ok: true; classes: SemanticClass[]; similarity?: AnswerSimilarity } | { ok: false; error: StageError };
  storedAt: number;
  /**
   * The identity of the model that made it (transformers/model-identity.ts), for a clusterer that runs
   * a model of its own: a model updated under the same id does not reuse it. Absent in entries
   * stored before it was recorded, and for clusterers without a model of their own.
   */
  identity?: string;
}

/** The computed grade of one modal label against one gold answer under one grader's settings. */
export interface StoredGrade {
  key: string;
  result: { ok: true; grade: Grade } | { ok: false; error: StageError };
  storedAt: number;
}

export interface StageCache {
  /** One entry per key, in the same order; undefined where nothing is stored. */
  getClusterings(keys: string[]): Promise<(StoredClustering | undefined)[]>;
  putClusterings(items: StoredClustering[]): Promise<void>;
  getGrades(keys: string[]): Promise<(StoredGrade | undefined)[]>;
  putGrades(items: StoredGrade[]): Promise<void>;
}
