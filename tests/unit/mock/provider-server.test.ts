import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { drawAnswer } from '../../mock/answers.ts';
import { type MockStats, MockProviderServer } from '../../mock/provider-server.ts';

let mock: MockProviderServer;
beforeEach(async () => {
  mock = await MockProviderServer.start({
    apiKey: 'k',
    questions: [{ match: 'Capital of Peru?', id: 'peru', answers: { Lima: 3, Cusco: 1 }, confidence: { Lima: 80, Cusco: 30 } }],
  });
});
afterEach(async () => {
  await mock.close();
});

const openai = (n: number, key = 'k', content = 'Question: Capital of Peru?') =>
  fetch(`${mock.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content }], n }),
  });

describe('mock provider server', () => {
  it('answers from the configured distribution, reproducibly per (question, sample index)', async () => {
    const body = await (await openai(40)).json();
    const answers = body.choices.map((c: { message: { content: string } }) => /Answer: (.*)\n/.exec(c.message.content)![1]);
    expect(answers).toEqual(Array.from({ length: 40 }, (_, j) => drawAnswer({ match: 'Capital of Peru?', id: 'peru', answers: { Lima: 3, Cusco: 1 } }, 0, j)));
    for (const c of body.choices) {
      const text: string = c.message.content;
      expect(text).toMatch(text.includes('Lima') ? /Confidence: 80%$/ : /Confidence: 30%$/);
    }
    // A fresh server with the same seed serves the same sequence.
    const again = await MockProviderServer.start({ apiKey: 'k', questions: [{ match: 'Capital of Peru?', id: 'peru', answers: { Lima: 3, Cusco: 1 } }] });
    const res = await fetch(`${again.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: 'Bearer k' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Capital of Peru?' }], n: 40 }),
    });
    const answers2 = (await res.json()).choices.map((c: { message: { content: string } }) => /Answer: (.*)\n/.exec(c.message.content)![1]);
    await again.close();
    expect(answers2).toEqual(answers);
  });

  it('class frequencies follow the weights (so Sem1 on its output is predictable)', () => {
    const q = { match: 'x', answers: { A: 0.6, B: 0.3, C: 0.1 } };
    const counts: Record<string, number> = { A: 0, B: 0, C: 0 };
    for (let j = 0; j < 5000; j++) counts[drawAnswer(q, 0, j)]++;
    expect(counts.A / 5000).toBeCloseTo(0.6, 1);
    expect(counts.B / 5000).toBeCloseTo(0.3, 1);
    expect(counts.C / 5000).toBeCloseTo(0.1, 1);
    expect(drawAnswer({ match: 'y', answers: { only: 1 } }, 0, 17)).toBe('only');
  });

  it('counts what it served per question, so a second serving of an index shows', async () => {
    await openai(3);
    await openai(2);
    expect(mock.stats().served).toEqual({ peru: 5 });
  });

  it('says how many requests still connected began before the latency last changed (what a test that holds new requests waits out)', async () => {
    mock.configure({ latencyMs: 400 });
    const before = openai(1);
    await vi.waitFor(() => expect(mock.stats().inFlight).toBe(1));
    expect(mock.stats().inFlightFromBefore).toBe(0);
    mock.configure({ latencyMs: 600_000 });
    const aborted = new AbortController();
    const held = fetch(`${mock.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: 'Bearer k' }, signal: aborted.signal,
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Capital of Peru?' }], n: 1 }),
    }).catch(() => undefined);
    await vi.waitFor(() => expect(mock.stats().inFlight).toBe(2));
    // The held request is not counted; the one sent before the change is, until it is answered.
    expect(mock.stats().inFlightFromBefore).toBe(1);
    expect((await before).status).toBe(200);
    await vi.waitFor(() => expect(mock.stats().inFlightFromBefore).toBe(0));
    expect(mock.stats().served.peru).toBe(1);
    // A request from before whose client went away can deliver nothing, so it is not counted either.
    mock.configure({ latencyMs: 1 });
    expect(mock.stats().inFlight).toBe(1);
    expect(mock.stats().inFlightFromBefore).toBe(1);
    aborted.abort();
    await held;
    await vi.waitFor(() => expect(mock.stats().inFlightFromBefore).toBe(0));
  });

  it('refuses a wrong or missing key in each API’s own format, and logs nothing', async () => {
    const log = vi.spyOn(console, 'log');
    const error = vi.spyOn(console, 'error');
    const wrong = await openai(1, 'bad');
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error.code).toBe('invalid_api_key');
    const anth = await fetch(`${mock.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [] }) });
    expect(anth.status).toBe(401);
    expect((await anth.json())).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const gem = await fetch(`${mock.url}/v1/models/gemini-2.5-flash:generateContent`, { method: 'POST', headers: { 'x-goog-api-key': 'nope' }, body: JSON.stringify({ contents: [] }) });
    expect(gem.status).toBe(400);
    expect((await gem.json()).error.details[0].reason).toBe('API_KEY_INVALID');
    expect(log).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
    expect(JSON.stringify(mock.stats())).not.toContain('bad');
    log.mockRestore();
    error.mockRestore();
  });

  it('Anthropic from a browser origin needs the direct-browser-access header', async () => {
    const res = await fetch(`${mock.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', origin: 'http://127.0.0.1:5173', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'Capital of Peru?' }] }),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).error.message).toMatch(/anthropic-dangerous-direct-browser-access/);
  });

  it('is configured and read over HTTP by a test in another process', async () => {
    const cfg = await fetch(`${mock.url}/__mock/config`, { method: 'POST', body: JSON.stringify({ faults: { sequence: ['server-503'] } }) });
    expect(cfg.status).toBe(200);
    expect((await openai(1)).status).toBe(503);
    expect((await openai(1)).status).toBe(200);
    const stats = (await (await fetch(`${mock.url}/__mock/stats`)).json()) as MockStats;
    expect(stats).toMatchObject({ requests: 2, byStatus: { '200': 1, '503': 1 }, faults: { 'server-503': 1 }, served: { peru: 1 } });
    await fetch(`${mock.url}/__mock/reset`, { method: 'POST' });
    expect(mock.stats().requests).toBe(0);
    const bad = await fetch(`${mock.url}/__mock/config`, { method: 'POST', body: '{nope' });
    expect(bad.status).toBe(400);
  });

  it('a custom responder scripts the reply text (e.g. a judge’s JSON)', async () => {
    mock.responder = (req, index) => (req.system.includes('judge') ? `{"clusters":[{"label":"Lima","members":[${index}]}]}` : undefined);
    const res = await fetch(`${mock.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: 'Bearer k' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'system', content: 'You are a judge.' }, { role: 'user', content: 'cluster these' }] }),
    });
    expect(JSON.parse((await res.json()).choices[0].message.content)).toEqual({ clusters: [{ label: 'Lima', members: [0] }] });
  });

  it('injects malformed JSON, fewer choices and dropped connections on demand', async () => {
    mock.configure({ faults: { sequence: ['malformed', 'fewer', 'drop'] } });
    const malformed = await (await openai(1)).text();
    expect(() => JSON.parse(malformed)).toThrow();
    expect((await (await openai(4)).json()).choices).toHaveLength(2);
    await expect(openai(1)).rejects.toThrow();
    expect(mock.stats().served).toEqual({ peru: 2 });
  });

  it('validates request shapes the way the real APIs do', async () => {
    const both = await fetch(`${mock.url}/v1/messages`, {
      method: 'POST', headers: { 'x-api-key': 'k' },
      body: JSON.stringify({ model: 'm', max_tokens: 5, temperature: 1, top_p: 0.9, messages: [{ role: 'user', content: 'q' }] }),
    });
    expect(both.status).toBe(400);
    const noMax = await fetch(`${mock.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'k' }, body: JSON.stringify({ model: 'm', messages: [] }) });
    expect(noMax.status).toBe(400);
    const g3 = await fetch(`${mock.url}/v1/models/gemini-3-pro:generateContent`, {
      method: 'POST', headers: { 'x-goog-api-key': 'k' }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'q' }] }], generationConfig: { candidateCount: 2 } }),
    });
    expect(g3.status).toBe(400);
    expect((await g3.json()).error.message).toMatch(/Multiple candidates/);
  });
});

describe('mock over TLS with HTTP/2', () => {
  it('serves many concurrent requests on one HTTP/2 connection, and drops a single stream on demand', async () => {
    const { connect } = await import('node:http2');
    const tlsMock = await MockProviderServer.start(
      { apiKey: 'k', latencyMs: 50, questions: [{ match: 'Capital of Peru?', id: 'peru', answers: { Lima: 1 } }] },
      { tls: true },
    );
    const session = connect(tlsMock.url, { ca: tlsMock.tls!.cert });
    const post = (body: object) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const stream = session.request({ ':method': 'POST', ':path': '/v1/chat/completions', authorization: 'Bearer k', 'content-type': 'application/json' });
        let status = 0;
        let text = '';
        stream.on('response', (h) => (status = Number(h[':status'])));
        stream.on('data', (c: Buffer) => (text += c.toString()));
        stream.on('end', () => resolve({ status, text }));
        stream.on('error', reject);
        stream.end(JSON.stringify(body));
      });
    const ask = { model: 'm', messages: [{ role: 'user', content: 'Capital of Peru?' }] };
    try {
      const replies = await Promise.all(Array.from({ length: 12 }, () => post(ask)));
      expect(replies.every((r) => r.status === 200)).toBe(true);
      expect(tlsMock.stats().served).toEqual({ peru: 12 });
      tlsMock.configure({ faults: { sequence: ['drop'] } });
      const [dropped, fine] = await Promise.allSettled([post(ask), post(ask)]);
      expect(dropped.status).toBe('rejected');
      expect(fine).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
      expect(tlsMock.tls!.spki).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    } finally {
      session.close();
      await tlsMock.close();
    }
  });
});
