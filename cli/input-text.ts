/**
 * A command's input file as text for the JSONL readers (src/formats/jsonl-rows.ts): one flat
 * string when it fits in one, else chunks of it decoded in turn. V8 refuses strings over about
 * 512 MB, and a clustered file of 40,000 questions × 50 long replies can be larger.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/** Files up to this size are read as one string (the fast path: one decode, one flat string). */
export const WHOLE_TEXT_BYTES = 256 * 1024 * 1024;
/** The size of each chunk read beyond it. */
export const CHUNK_BYTES = 64 * 1024 * 1024;

/**
 * The file as one flat string: read whole, then decoded in one call (Node's SIMD UTF-8 decoder).
 * readFile(file, 'utf8') decodes chunk by chunk into a rope that JSON.parse of the first line must
 * first flatten, a copy of the whole file (about 0.2 s on a 128 MB file). A larger file comes as
 * chunks, read when the reader asks for them; a read error there is thrown to the reader.
 */
export async function inputText(file: string, limits = { whole: WHOLE_TEXT_BYTES, chunk: CHUNK_BYTES }): Promise<string | Iterable<string>> {
  const { size } = statSync(file);
  if (size <= limits.whole) return (await readFile(file)).toString('utf8');
  return chunksOf(file, limits.chunk);
}

function* chunksOf(file: string, chunkBytes: number): Generator<string> {
  const fd = openSync(file, 'r');
  try {
    // A character cut at a chunk's end is held back until the next chunk completes it.
    const decoder = new StringDecoder('utf8');
    const buffer = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const read = readSync(fd, buffer, 0, chunkBytes, null);
      if (read === 0) break;
      yield decoder.write(buffer.subarray(0, read));
    }
    const tail = decoder.end();
    if (tail) yield tail;
  } finally {
    closeSync(fd);
  }
}
