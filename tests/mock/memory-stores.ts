/**
 * The ports a run's stages and lifecycle see (model/run-repository.ts, model/stage-cache.ts,
 * model/sample-cache.ts), in memory: the runner's tests run on these instead of a fake IndexedDB.
 * The store's own tests (tests/unit/store/) check the IndexedDB implementations of the same ports.
 */
import { MemoryRunRepository } from '../../src/model/run-repository';
import { MemorySampleCache } from '../../src/model/sample-cache';
import type { StageCache, StoredClustering, StoredGrade } from '../../src/model/stage-cache';
import type { Grade } from '../../src/model/rows';

export class MemoryStageCache implements StageCache {
  readonly clusterings = new Map<string, StoredClustering>();
  readonly grades = new Map<string, StoredGrade>();
  async getClusterings(keys: string[]): Promise<(StoredClustering | undefined)[]> {
    return keys.map((k) => structuredClone(this.clusterings.get(k)));
  }
  async putClusterings(items: StoredClustering[]): Promise<void> {
    for (const item of items) this.clusterings.set(item.key, structuredClone(item));
  }
  async getGrades(keys: string[]): Promise<(StoredGrade | undefined)[]> {
    return keys.map((k) => structuredClone(this.grades.get(k)));
  }
  async putGrades(items: StoredGrade[]): Promise<void> {
    for (const item of items) this.grades.set(item.key, structuredClone(item));
  }
}

/** The run repository with the one write the pages make besides the runner's: a person's grade. */
export class TestRunRepository extends MemoryRunRepository {
  async setGradeOverride(o: { runId: string; model: string; questionId: string; grade: Grade }): Promise<void> {
    const run = this.overrides.get(o.runId) ?? new Map<string, Map<string, Grade>>();
    this.overrides.set(o.runId, run);
    const model = run.get(o.model) ?? new Map<string, Grade>();
    run.set(o.model, model);
    model.set(o.questionId, o.grade);
  }
}

export interface MemoryStores {
  runs: TestRunRepository;
  samples: MemorySampleCache;
  stages: MemoryStageCache;
}

export function memoryStores(): MemoryStores {
  return { runs: new TestRunRepository(), samples: new MemorySampleCache(), stages: new MemoryStageCache() };
}
