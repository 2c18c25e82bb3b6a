/**
 * The graders, built in one place from a run's grading settings and what the run or command hands
 * them: the worker (workers/real-stages.ts) and `semece grade` both build theirs here, as
 * clusterers are built by clustering/clusterer-registry.ts.
 */
import type { ChatProvider } from '../model/provider';
import type { GradingSpec, ModelSpec } from '../model/run-spec';
import { createAliasGrader } from './alias';
import { createJudgeGrader } from './judge-grader';
import type { Grader } from './grader';

export interface GraderDeps {
  /** The judge's provider (the worker: with the run's key; the CLI: from its flags). */
  provider(model: ModelSpec): ChatProvider;
  /** Judge attempts after the first (the judge's default when unset). */
  retries?: number;
}

export function createGrader(spec: GradingSpec, deps: GraderDeps): Grader {
  return spec.method === 'alias' ? createAliasGrader() : createJudgeGrader({ provider: deps.provider(spec.judge), prompt: spec.prompt, retries: deps.retries });
}
