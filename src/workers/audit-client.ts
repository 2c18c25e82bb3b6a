/**
 * An audit's summary (agreement, the ECE shift, the report recomputed with the corrections) in the
 * recompute worker, in its own module so it loads with the audit page and the report's audit panel
 * only. Where no worker starts (an offline HTML report opened from a file), the same function runs
 * on the main thread.
 */
import type { Result } from '../model/rows';
import type { AuditDocumentSummary } from '../pipeline/audit-summary';
import type { AuditRequest } from './recompute-api';
import { noRecomputeWorker, recomputeFailure, recomputeWorker, unavailable } from './recompute-client';

const auditFailed = (cause: unknown) => recomputeFailure('audit', 'The audit could not be summarised', cause);

export async function summariseAudit(request: AuditRequest): Promise<Result<AuditDocumentSummary>> {
  const api = recomputeWorker();
  if (api) {
    try {
      const reply = await api.audit(request);
      return reply.ok ? reply : auditFailed(reply.error);
    } catch (err) {
      if (!unavailable(err)) return auditFailed(err);
      noRecomputeWorker();
    }
  }
  try {
    const { auditOfRequest } = await import('./recompute-api');
    return { ok: true, value: auditOfRequest(request) };
  } catch (err) {
    return auditFailed(err);
  }
}
