/**
 * The Slices tab's computation in the recompute worker, in its own module so that it loads with
 * the lazily loaded tab and not with the first page.
 */
import type { Result } from '../../model/rows';
import type { SliceAnalysis } from '../../pipeline/slices';
import { WORKER_UNAVAILABLE } from '../../workers/worker-connection';
import { errorText } from '../error-text';
import { noRecomputeWorker, recomputeWorker, type SliceRequest } from './recompute-client';

const message = (err: unknown) => errorText(err);

const slicesFailed = (why: string): Result<SliceAnalysis> => ({ ok: false, error: { kind: 'slices', message: `The slices could not be computed: ${why}` } });

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
      return reply.ok ? reply : slicesFailed(reply.error.message);
    } catch (err) {
      if ((err as { kind?: string }).kind !== WORKER_UNAVAILABLE) return slicesFailed(message(err));
      noRecomputeWorker();
    }
  }
  try {
    const { sliceReport } = await import('../../pipeline/slices');
    return { ok: true, value: sliceReport(request.questions, request.column, request.signals, request.options) };
  } catch (err) {
    return slicesFailed(message(err));
  }
}