/**
 * The wire formats, one row each: the only place a format is picked by its id. createProvider
 * sends through the row of its config's kind, capabilitiesFor starts from the row of a preset's
 * kind, and batch/ builds request lines, reads result lines and opens services through the row of
 * a model's kind. Adding a format: its module (one WireFormat, as openai.ts), its id in
 * model/provider.ts WIRE_FORMAT_IDS, and its row here (the type below insists on one row per id).
 *
 * The table is a value that can be passed on: createProvider and batchServiceFor take another
 * table in their deps (a test adds a format through it without touching this one).
 */
import type { WireFormatId } from '../model/provider.ts';
import { ANTHROPIC } from './anthropic.ts';
import { ProviderError } from './errors.ts';
import { GEMINI } from './gemini.ts';
import { OPENAI } from './openai.ts';
import type { WireBatch, WireFormat } from './wire-format.ts';

/** Formats by id. */
export type WireFormats = Readonly<Record<string, WireFormat>>;

export const WIRE_FORMATS: Readonly<Record<WireFormatId, WireFormat>> = {
  openai: OPENAI,
  anthropic: ANTHROPIC,
  gemini: GEMINI,
};

/** The format of this id in a table, or undefined ('in-browser', an id from another version). */
export function findWireFormat(id: string, formats: WireFormats = WIRE_FORMATS): WireFormat | undefined {
  return Object.prototype.hasOwnProperty.call(formats, id) ? formats[id] : undefined;
}

/** The format of this id, or a ProviderError that names the id and the formats there are. */
export function wireFormat(id: string, formats: WireFormats = WIRE_FORMATS): WireFormat {
  const format = findWireFormat(id, formats);
  if (format) return format;
  throw new ProviderError({
    kind: 'bad-request',
    retryable: false,
    message: `No wire format is called ${JSON.stringify(id)}: expected one of ${Object.keys(formats).join(', ')}.`,
  });
}

/** The batch side of a format, or a ProviderError saying the format has no batch service. */
export function wireBatch(id: string, formats: WireFormats = WIRE_FORMATS): WireBatch {
  const batch = wireFormat(id, formats).batch;
  if (batch) return batch;
  throw new ProviderError({ kind: 'bad-request', retryable: false, message: `The ${id} wire format has no batch service this app can use.` });
}
