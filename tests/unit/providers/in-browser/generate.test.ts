/**
 * The tiny causal model through Transformers.js's real loading, tokenizing, chat-template and
 * generation code in Node: its answers follow the table it was made from (within Monte Carlo
 * error), the app's prompt and parser read its replies, a seed reproduces them, and temperature,
 * top_p, the token limit and cancelling do what they say.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { distributionsAgree, drawToken, generateReplies, loadGenerator, nextTokenProbabilities, nucleus, PROBE_MESSAGES, type LoadedGenerator } from '../../../../src/providers/in-browser/generate';
import { TINY_CAUSAL_MODEL } from '../../../../src/providers/in-browser/models';
import { extractSample } from '../../../../src/pipeline/extract';
import { DEFAULT_GENERATION_PROMPT, fillPrompt, generationMessages } from '../../../../src/pipeline/prompts';
import { TINY_TOPICS, answerText, probabilities, topicOf } from '../../../../scripts/tiny-causal-lm-table';

const MODELS = path.resolve(import.meta.dirname, '../../../../public/models');
let g: LoadedGenerator;

beforeAll(async () => {
  g = await loadGenerator({ model: TINY_CAUSAL_MODEL, localModelPath: MODELS, allowRemoteModels: false });
});
afterAll(async () => g?.dispose());

const messagesFor = (question: string) => generationMessages(fillPrompt(DEFAULT_GENERATION_PROMPT, { question }));

describe('the tiny causal model', () => {
  test('answers each known question with the table’s distribution, in the app’s reply format', async () => {
    for (const [k, topic] of TINY_TOPICS.entries()) {
      if (k === 0) continue;
      expect(topicOf(topic.question)).toBe(k);
      const counts = new Map<string, number>();
      const draws = 256;
      for (let done = 0; done < draws; done += 16) {
        const r = await generateReplies(g, { messages: messagesFor(topic.question), n: 16, temperature: 1, maxTokens: 12, seed: 1000 * k + done });
        expect(r.replies).toHaveLength(16);
        for (const reply of r.replies) {
          expect(reply.finishReason).toBe('stop');
          const s = extractSample(reply.text);
          expect(s.answerMethod).toBe('answer-line');
          expect(s.confidenceMethod).toBe('confidence-line');
          expect(topic.confidences.map((c) => Number(c.token) / 100)).toContain(s.confidence);
          counts.set(s.answer, (counts.get(s.answer) ?? 0) + 1);
        }
      }
      const p = probabilities(topic.answers);
      topic.answers.forEach((a, i) => {
        const seen = (counts.get(answerText(a)) ?? 0) / draws;
        // 4.5 standard errors: a false alarm about once in 150,000 runs.
        const se = Math.sqrt((p[i] * (1 - p[i])) / draws);
        expect(Math.abs(seen - p[i])).toBeLessThanOrEqual(4.5 * se + 1e-9);
      });
      expect([...counts.keys()].every((a) => topic.answers.some((t) => answerText(t) === a))).toBe(true);
    }
  });

  test('a question it has no keyword for gets the unknown topic’s answers', async () => {
    const r = await generateReplies(g, { messages: messagesFor('Who painted the Mona Lisa?'), n: 16, temperature: 1, maxTokens: 12, seed: 3 });
    const allowed = TINY_TOPICS[0].answers.map(answerText);
    for (const reply of r.replies) expect(allowed).toContain(extractSample(reply.text).answer);
  });

  test('a seed reproduces the replies exactly; another seed draws others', async () => {
    const req = { messages: messagesFor(TINY_TOPICS[3].question), n: 16, temperature: 1, maxTokens: 12 };
    const a = await generateReplies(g, { ...req, seed: 42 });
    const b = await generateReplies(g, { ...req, seed: 42 });
    const c = await generateReplies(g, { ...req, seed: 43 });
    expect(b.replies.map((r) => r.text)).toEqual(a.replies.map((r) => r.text));
    expect(c.replies.map((r) => r.text)).not.toEqual(a.replies.map((r) => r.text));
  });

  test('temperature 0 is greedy: every reply is the favourite', async () => {
    const topic = TINY_TOPICS[1];
    const r = await generateReplies(g, { messages: messagesFor(topic.question), n: 4, temperature: 0, maxTokens: 12 });
    for (const reply of r.replies) expect(reply.text).toBe(`Answer:${topic.answers[0].token}\nConfidence:${topic.confidences[0].token}%`);
  });

  test('top_p keeps only the nucleus: below the favourite’s probability, only the favourite is drawn', async () => {
    const topic = TINY_TOPICS[1];
    const favourite = probabilities(topic.answers)[0];
    const r = await generateReplies(g, { messages: messagesFor(topic.question), n: 16, temperature: 1, topP: favourite - 0.05, maxTokens: 12, seed: 9 });
    for (const reply of r.replies) expect(extractSample(reply.text).answer).toBe(answerText(topic.answers[0]));
  });

  test('counts tokens per reply, and a reply cut by the token limit says so', async () => {
    const full = await generateReplies(g, { messages: messagesFor(TINY_TOPICS[1].question), n: 2, temperature: 1, maxTokens: 12, seed: 5 });
    // Answer:, the answer, \n, Confidence:, the value, %, and the end token.
    expect(full.replies.map((r) => r.tokens)).toEqual([7, 7]);
    expect(full.outputTokens).toBe(14);
    expect(full.inputTokens).toBeGreaterThan(10);
    const cut = await generateReplies(g, { messages: messagesFor(TINY_TOPICS[1].question), n: 2, temperature: 1, maxTokens: 3, seed: 5 });
    for (const r of cut.replies) {
      expect(r.finishReason).toBe('length');
      expect(r.text.startsWith('Answer: ')).toBe(true);
      expect(r.text).not.toContain('Confidence');
    }
  });

  test('a request cancelled while it generates stops and throws an AbortError', async () => {
    const controller = new AbortController();
    const running = generateReplies(g, { messages: messagesFor(TINY_TOPICS[1].question), n: 4, temperature: 1, maxTokens: 12, seed: 1 }, { signal: controller.signal });
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
  });

  test('a cancelled request throws an AbortError', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(generateReplies(g, { messages: messagesFor('x'), n: 1, temperature: 1, maxTokens: 4 }, { signal: controller.signal })).rejects.toThrow(/cancelled/);
  });
});

describe('the model’s own generation defaults', () => {
  test('a repetition rule in generation_config.json is not applied: temperature and top_p are the whole sampling rule', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tiny-causal-defaults-'));
    try {
      await cp(path.join(MODELS, TINY_CAUSAL_MODEL), path.join(dir, TINY_CAUSAL_MODEL), { recursive: true });
      const file = path.join(dir, TINY_CAUSAL_MODEL, 'generation_config.json');
      // no_repeat_ngram_size 1 would forbid the end token (it is in the prompt), so no reply could end.
      await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), no_repeat_ngram_size: 1, repetition_penalty: 1.5 }));
      const other = await loadGenerator({ model: TINY_CAUSAL_MODEL, localModelPath: dir + path.sep, allowRemoteModels: false });
      try {
        const r = await generateReplies(other, { messages: messagesFor(TINY_TOPICS[1].question), n: 4, temperature: 1, maxTokens: 12, seed: 2 });
        for (const reply of r.replies) {
          expect(reply.finishReason).toBe('stop');
          expect(extractSample(reply.text).confidenceMethod).toBe('confidence-line');
        }
      } finally {
        await other.dispose();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the WebGPU check', () => {
  test('next-token probabilities after the prompt: the tiny model always starts with "Answer:"', async () => {
    const p = await nextTokenProbabilities(g, PROBE_MESSAGES[0]);
    let top = 0;
    for (let i = 0; i < p.length; i++) if (p[i] > p[top]) top = i;
    expect(g.tokenizer.decode([top])).toBe('Answer:');
    expect(p[top]).toBeGreaterThan(0.999);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
  });

  test('agree: same favourite and a small total variation on every probe; disagree otherwise', () => {
    const a = [Float32Array.from([0.7, 0.2, 0.1]), Float32Array.from([0.1, 0.9, 0])];
    expect(distributionsAgree(a, [Float32Array.from([0.68, 0.22, 0.1]), Float32Array.from([0.12, 0.88, 0])])).toEqual({ agree: true, worst: expect.closeTo(0.02, 6) });
    // Another favourite fails whatever the distance.
    expect(distributionsAgree(a, [Float32Array.from([0.45, 0.46, 0.09]), a[1]]).agree).toBe(false);
    // A probe missing on one side is no agreement.
    expect(distributionsAgree(a, [a[0]]).agree).toBe(false);
    expect(distributionsAgree([], []).agree).toBe(false);
    expect(distributionsAgree(a, [Float32Array.from([0.7, 0.3]), a[1]]).agree).toBe(false);
  });
});

describe('drawToken', () => {
  test('draws by softmax(logits / temperature): the share of each token follows its probability', () => {
    let state = 1;
    // A small LCG: the test needs uniform draws, not the library's generator.
    const uniform = () => ((state = (state * 48271) % 2147483647) / 2147483647);
    const counts = [0, 0, 0];
    const draws = 30_000;
    for (let i = 0; i < draws; i++) counts[drawToken(Float32Array.from([0, Math.log(0.5), -Infinity]), 1, 1, uniform)]++;
    expect(counts[2]).toBe(0);
    expect(Math.abs(counts[0] / draws - 2 / 3)).toBeLessThan(4.5 * Math.sqrt((2 / 9) / draws));
    // Temperature 0.5 squares the odds: 4 : 1.
    const hot = [0, 0];
    for (let i = 0; i < draws; i++) hot[drawToken(Float32Array.from([0, Math.log(0.5)]), 0.5, 1, uniform)]++;
    expect(Math.abs(hot[0] / draws - 0.8)).toBeLessThan(4.5 * Math.sqrt(0.16 / draws));
    // A nucleus below the favourite's share keeps the favourite only.
    for (let i = 0; i < 100; i++) expect(drawToken(Float32Array.from([0, Math.log(0.5)]), 1, 0.5, uniform)).toBe(0);
  });
});

describe('nucleus', () => {
  test('keeps the smallest set reaching top_p, always at least one token', () => {
    const logits = Float32Array.from([Math.log(0.5), Math.log(0.3), Math.log(0.2)]);
    nucleus(logits, 0.7);
    expect(Array.from(logits, Number.isFinite)).toEqual([true, true, false]);
    const one = Float32Array.from([Math.log(0.5), Math.log(0.3), Math.log(0.2)]);
    nucleus(one, 0.1);
    expect(Array.from(one, Number.isFinite)).toEqual([true, false, false]);
    const all = Float32Array.from([0, 0]);
    nucleus(all, 1);
    expect(Array.from(all)).toEqual([0, 0]);
    // A token e^-35 below the favourite is never in a nucleus below 1 (its share is negligible).
    const far = Float32Array.from([0, -35, -1]);
    nucleus(far, 0.999999);
    expect(Array.from(far, Number.isFinite)).toEqual([true, false, true]);
  });
});
