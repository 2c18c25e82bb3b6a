/**
 * A run spec as the page sends it to the run worker: JSON text, the dataset's questions in parts.
 *
 * Posting the spec as it is structured-clones every question on the page's main thread in one
 * task: 85–161 ms for 40,000 questions (issue 16, `npm run bench -- batch-ingest`), over the 50 ms
 * a page may block. Strings clone as one flat copy, so the page writes the questions as JSON a
 * part at a time, giving the page back its thread between parts, and posts a few strings; the
 * worker parses them off the main thread. A plain RunSpec is still accepted (tests, Node callers).
 */
import type { Question } from '../model/rows';
import type { RunSpec } from '../model/run-spec';

const FORMAT = 'semece-run-spec/json-parts';

export interface PackedRunSpec {
  readonly format: typeof FORMAT;
  /** The spec with an empty question list, as JSON. */
  readonly spec: string;
  /** The dataset's questions, in order: each part a JSON array. */
  readonly questions: string[];
}

/** Questions written per part, between which the clock is checked. */
const PART_QUESTIONS = 1000;
/** The page's thread is given back once this long has gone into one task of writing. */
const SLICE_MS = 8;

/** Lets the page's other tasks (input, rendering) run: scheduler.yield where there is one, else a message task (no timer clamping). */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      port2.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

export interface PackOptions {
  /** Questions per part (default 1000). */
  partQuestions?: number;
  /** How long one task may write before the thread is given back (default 8 ms). */
  sliceMs?: number;
}

/** The spec as JSON parts, written a slice of the page's time at a time. */
export async function packRunSpec(spec: RunSpec, options: PackOptions = {}): Promise<PackedRunSpec> {
  const per = Math.max(1, options.partQuestions ?? PART_QUESTIONS);
  const sliceMs = options.sliceMs ?? SLICE_MS;
  const all = spec.dataset.questions;
  const questions: string[] = [];
  let sliceStart = performance.now();
  for (let i = 0; i < all.length; i += per) {
    questions.push(JSON.stringify(all.slice(i, i + per)));
    if (performance.now() - sliceStart > sliceMs) {
      await nextTask();
      sliceStart = performance.now();
    }
  }
  return { format: FORMAT, spec: JSON.stringify({ ...spec, dataset: { ...spec.dataset, questions: [] } }), questions };
}

export function isPackedRunSpec(value: unknown): value is PackedRunSpec {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === FORMAT;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The spec a start was given, packed or not. Throws an Error naming the part that is not JSON
 * or not of the expected shape.
 */
export function unpackRunSpec(value: RunSpec | PackedRunSpec): RunSpec {
  if (!isPackedRunSpec(value)) return value;
  const parse = (text: unknown, where: string): unknown => {
    if (typeof text !== 'string') throw new Error(`The run settings sent to the run worker are damaged: ${where} is not text.`);
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new Error(`The run settings sent to the run worker are damaged: ${where} is not JSON (${(e as Error).message}).`);
    }
  };
  const spec = parse(value.spec, 'the settings');
  if (!isRecord(spec) || !isRecord(spec.dataset)) throw new Error('The run settings sent to the run worker are damaged: the settings have no dataset.');
  if (!Array.isArray(value.questions)) throw new Error('The run settings sent to the run worker are damaged: the questions are not a list of parts.');
  const questions: Question[] = [];
  value.questions.forEach((part, i) => {
    const parsed = parse(part, `question part ${i + 1} of ${value.questions.length}`);
    if (!Array.isArray(parsed)) throw new Error(`The run settings sent to the run worker are damaged: question part ${i + 1} of ${value.questions.length} is not a list.`);
    for (const q of parsed as Question[]) questions.push(q);
  });
  return { ...(spec as unknown as RunSpec), dataset: { ...(spec.dataset as unknown as RunSpec['dataset']), questions } };
}
