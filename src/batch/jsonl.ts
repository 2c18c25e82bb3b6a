/**
 * JSONL in and out without holding a whole file: a 2-million-reply result file is read line by
 * line from a string, a Node stream or a browser ReadableStream (File.stream() decoded).
 */

import type { LineSource } from '../providers/batch-service.ts';

export type { LineSource } from '../providers/batch-service.ts';

async function* chunksOf(source: Exclude<LineSource, string>): AsyncGenerator<string> {
  if (typeof (source as ReadableStream<string>).getReader === 'function') {
    const reader = (source as ReadableStream<string>).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  }
  yield* source as AsyncIterable<string>;
}

/**
 * Every line of a source, without its line break (\n or \r\n). A string or a stream of chunks is
 * split on line breaks; an iterable of strings is taken as already split into lines only when the
 * caller says so, since Node's readline yields lines while a stream yields arbitrary chunks.
 */
export async function* linesOf(source: LineSource, opts: { alreadyLines?: boolean } = {}): AsyncGenerator<string> {
  if (typeof source === 'string') {
    let start = 0;
    for (;;) {
      const end = source.indexOf('\n', start);
      if (end === -1) break;
      yield stripCr(source.slice(start, end));
      start = end + 1;
    }
    if (start < source.length) yield stripCr(source.slice(start));
    return;
  }
  if (opts.alreadyLines) {
    for await (const line of source as AsyncIterable<string>) yield stripCr(line);
    return;
  }
  let rest = '';
  for await (const chunk of chunksOf(source)) {
    rest += chunk;
    let start = 0;
    for (;;) {
      const end = rest.indexOf('\n', start);
      if (end === -1) break;
      yield stripCr(rest.slice(start, end));
      start = end + 1;
    }
    rest = rest.slice(start);
  }
  if (rest.length > 0) yield stripCr(rest);
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** JSONL text of records, one per line, ending with a line break. */
export function toJsonl(records: Iterable<unknown>): string {
  let out = '';
  for (const r of records) out += `${JSON.stringify(r)}\n`;
  return out;
}
