/**
 * What the wizard says a provider can do, from the tables the run itself uses: samples per
 * request (the capability table, or probed at run time for a server it does not know), a batch
 * service (batch/), a price (the user's price table; free only for a local preset priced at 0)
 * and logprobs. Kept apart from the components so it is tested as plain data.
 */
import { batchApiOf } from '../../batch/run-request-set';
import { priceFor, type PriceTable } from '../../model/cost';
import { capabilitiesFor } from '../../providers/capabilities';
import { getPreset } from '../../providers/presets';

export interface CapabilitySummary {
  /** 'probed': tried with n > 1 at run time, and one per request if the server refuses. */
  samplesPerRequest: { kind: 'several'; max: number } | { kind: 'one' } | { kind: 'probed' };
  batch: boolean;
  price: 'known' | 'unknown' | 'free-local';
  logprobs: 'yes' | 'no' | 'unknown';
}

export function capabilitySummary(model: { preset: string; model: string }, prices: PriceTable): CapabilitySummary {
  const caps = capabilitiesFor(model.preset, model.model.trim());
  const price = priceFor(prices, model.preset, model.model.trim());
  const local = getPreset(model.preset)?.local === true;
  return {
    samplesPerRequest: caps.unknown ? { kind: 'probed' } : caps.maxN > 1 ? { kind: 'several', max: caps.maxN } : { kind: 'one' },
    batch: batchApiOf(model) !== undefined,
    price: !price ? 'unknown' : local && price.input === 0 && price.output === 0 ? 'free-local' : 'known',
    logprobs: caps.unknown ? 'unknown' : caps.logprobs ? 'yes' : 'no',
  };
}

/** The four lines the wizard shows, in words. */
export function capabilityLines(s: CapabilitySummary): { label: string; value: string; key: keyof CapabilitySummary }[] {
  const spr = s.samplesPerRequest;
  return [
    {
      key: 'samplesPerRequest',
      label: 'Samples per request',
      value: spr.kind === 'several' ? `several (n up to ${spr.max})` : spr.kind === 'one' ? '1 (one request per sample)' : 'probed at run time: n > 1 is tried once, 1 if the server refuses',
    },
    { key: 'batch', label: 'Batch API', value: s.batch ? 'yes' : 'no' },
    { key: 'price', label: 'Price known', value: s.price === 'known' ? 'yes' : s.price === 'free-local' ? 'free (local)' : 'no (add one on the last step)' },
    { key: 'logprobs', label: 'Logprobs', value: s.logprobs === 'unknown' ? 'unknown (tried, left out if refused)' : s.logprobs },
  ];
}
