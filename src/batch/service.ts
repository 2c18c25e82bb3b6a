/**
 * What every provider's batch service does, in one shape. The shape and the services themselves
 * live with the wire formats (providers/batch-service.ts, and each format's module): batch/ runs
 * them, and picks one only through the formats' table (service-for-model.ts).
 */
import type { WireFormatId } from '../model/provider.ts';

export type { BatchPhase, BatchResultFile, BatchService, BatchStatus } from '../providers/batch-service.ts';

/** The batch services, by the wire format they speak. */
export type BatchApi = WireFormatId;
