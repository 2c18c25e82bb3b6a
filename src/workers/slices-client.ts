/**
 * The Slices tab's computation in the recompute worker, in its own module so that it loads with
 * the lazily loaded tab and not with the first page.
 */
import type { Result } from '../model/rows';
import type { SliceAnalysis } from '../pipeline/slices';
import type { SliceRequest } from './recompute-api';
import { noRecomputeWorker, recomputeFailure, recomputeWorker, unavailable } from './recompute-client';

const slicesFailed = (cause: unknown) => recomputeFailure('slices', 'The slices could not be computed', cause);

/**
 * A model's slices by one column and the heterogeneity test (pipeline/slices.ts), in the worker:
 * its permutation test over a large report held the page. The same function on the main thread
 * where no worker starts.
 */
export async function sliceModel(request: SliceRequest): Promise<Result<SliceAnalysis>> {
  const api = recomputeWorker();
  if (api) {
    try {
      const reply = await api.slices(request);
      return reply.ok ? reply : slicesFailed(reply.error);
    } catch (err) {
      if (!unavailable(err)) return slicesFailed(err);
      noRecomputeWorker();
    }
  }
  try {
    const { sliceReport } = await import('../pipeline/slices');
    return { ok: true, value: sliceReport(request.questions, request.column, request.signals, request.options) };
  } catch (err) {
    return slicesFailed(err);
  }
}
