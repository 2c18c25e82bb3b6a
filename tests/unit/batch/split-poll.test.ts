import { describe, expect, it } from 'vitest';
import { inParts } from '../../../src/batch/split-by-limits.ts';
import { pollUntilEnded } from '../../../src/batch/poll.ts';
import type { BatchService, BatchStatus } from '../../../src/batch/service.ts';
import { linesOf } from '../../../src/batch/jsonl.ts';

async function* gen(n: number, size: number) {
  for (let i = 0; i < n; i++) yield { id: i, line: { pad: 'x'.repeat(size) } };
}

describe('inParts', () => {
  it('cuts at the request limit and at the byte limit, never leaving an empty part', async () => {
    const byCount = [];
    for await (const p of inParts('openai', gen(7, 1), { maxRequests: 3, maxBytes: 1e9 })) byCount.push(p.map((x) => x.id));
    expect(byCount).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
    const bySize = [];
    // Each line is about 110 bytes: two fit in 250.
    for await (const p of inParts('gemini', gen(5, 100), { maxRequests: 100, maxBytes: 250 })) bySize.push(p.length);
    expect(bySize).toEqual([2, 2, 1]);
  });
});

describe('pollUntilEnded', () => {
  it('waits longer between polls, up to the cap, and reports every status', async () => {
    let polls = 0;
    const status = (ended: boolean): BatchStatus => ({ id: 'b', phase: ended ? 'completed' : 'running', raw: ended ? 'completed' : 'in_progress', ended, counts: { total: 1, succeeded: 0, failed: 0 } });
    const service = { api: 'openai', status: async () => status(++polls >= 5) } as unknown as BatchService;
    const waits: number[] = [];
    const seen: string[] = [];
    const end = await pollUntilEnded(service, status(false), { intervalMs: 100, factor: 2, maxIntervalMs: 500, sleep: async (ms) => void waits.push(ms), onStatus: (s) => seen.push(s.raw) });
    expect(end.ended).toBe(true);
    expect(waits).toEqual([100, 200, 400, 500, 500]);
    expect(seen).toEqual(['in_progress', 'in_progress', 'in_progress', 'in_progress', 'in_progress', 'completed']);
  });
});

describe('linesOf', () => {
  it('splits chunks of a stream at line breaks, whatever the chunk boundaries, CRLF included', async () => {
    const stream = new ReadableStream<string>({
      start(c) {
        for (const chunk of ['{"a":', '1}\r\n{"b"', ':2}\n', '\n{"c":3}']) c.enqueue(chunk);
        c.close();
      },
    });
    const got = [];
    for await (const l of linesOf(stream)) got.push(l);
    expect(got).toEqual(['{"a":1}', '{"b":2}', '', '{"c":3}']);
  });
});
