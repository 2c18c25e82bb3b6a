/**
 * p(True)'s requests through a batch service (pipeline/p-true.ts asks the same ones one at a time):
 * which requests a round must carry, read off the sample cache, and where a result line's replies
 * are stored. The prompt, the settings, the key of each reply and the stored reply are the direct
 * path's own (pTruePrompt, P_TRUE_SETTINGS, pTrueKeyBase, replyToSample), so a direct run and a
 * batch run find each other's replies and a rerun asks for nothing already stored.
 *
 * A question takes one or two rounds, as on the direct path: round one asks reply 0 with logprobs;
 * a question whose reply 0 carries no verdict distribution then asks replies 1 … samples−1 (the
 * sampled verdicts). Each call of requests() plans what the cache still lacks, so the round after
 * a collected batch is the next call. The values are read by p-true.ts from the stored replies.
 */
import { effectiveSettings } from '../providers/capabilities.ts';
import { keyAt, readQuestions, type SampleCache } from '../model/sample-cache.ts';
import type { PTrueSpec } from '../model/run-spec.ts';
import { P_TRUE_SETTINGS, pTrueKeyBase, pTruePrompt, type PTrueQuestion } from '../pipeline/p-true.ts';
import { P_TRUE_PROMPT_VERSION, pTrueFromLogprobs } from '../pipeline/p-true-read.ts';
import { decodeCustomId, pTrueCustomId, questionHash, requestSetTag } from './custom-id.ts';
import { type BatchModel, requestLine, wireContextFor } from './request-lines.ts';
import type { PlannedRequest, SampleRequestSet } from './request-set.ts';

/** Questions whose samples are read at once when the p(True) set is made. */
const READ_CHUNK = 500;

interface Entry {
  question: PTrueQuestion;
  messages: ReturnType<typeof pTruePrompt>['messages'];
  base: string;
  hash: string;
}

export type PTrueLocated = { ok: true; entry: Entry; first: number; count: number } | { ok: false; kind: 'unknown-id' | 'foreign-id'; message: string };

export class PTrueRequestSet {
  readonly api: BatchModel['kind'];
  /** Replies one request may ask for: the p(True) samples where the API has n, else 1. */
  readonly perRequest: number;
  /** Replies a question may take (reply 0, and the rest when it has no logprob verdict). */
  readonly wanted: number;
  /** Of the last requests() call: requests planned, and questions already answered by the cache. */
  readonly counts = { questions: 0, requests: 0, cached: 0 };

  private constructor(
    readonly model: BatchModel,
    readonly spec: PTrueSpec,
    readonly tag: string,
    private readonly entries: Entry[],
    private readonly byHash: Map<string, Entry>,
  ) {
    this.api = model.kind;
    this.wanted = Math.max(1, spec.samples);
    const ctx = wireContextFor(model);
    this.perRequest = Math.max(1, Math.min(ctx.caps.maxN, this.wanted));
    this.counts.questions = entries.length;
  }

  /** The set of the questions with a proposed answer (one with none is asked nothing, as on the direct path); first row per id. */
  static async create(model: BatchModel, spec: PTrueSpec, questions: readonly PTrueQuestion[]): Promise<PTrueRequestSet> {
    const tag = await requestSetTag({ pTrue: P_TRUE_PROMPT_VERSION, preset: model.preset, baseUrl: model.baseUrl.replace(/\/+$/, ''), model: model.model, settings: P_TRUE_SETTINGS });
    const entries: Entry[] = [];
    const byHash = new Map<string, Entry>();
    const seen = new Set<string>();
    for (const q of questions) {
      if (seen.has(q.id)) continue;
      seen.add(q.id);
      const { proposed, messages } = pTruePrompt(q, spec);
      if (proposed === '') continue;
      // The filled prompt is in the hash: a result for another proposed answer (samples changed since) is refused.
      const hash = await questionHash({ id: q.id, question: messages[0].content });
      const entry = { question: q, messages, base: await pTrueKeyBase(model, q, messages), hash };
      entries.push(entry);
      byHash.set(hash, entry);
    }
    return new PTrueRequestSet(model, spec, tag, entries, byHash);
  }

  keyOf(entry: Entry, index: number): string {
    return keyAt(entry.base, index);
  }

  /** The requests the cache still calls for: reply 0 where missing; otherwise, without a logprob verdict, the missing sampled replies. */
  async *requests(cache: SampleCache): AsyncGenerator<PlannedRequest> {
    this.counts.requests = 0;
    this.counts.cached = 0;
    const ctx = wireContextFor(this.model);
    for (const e of this.entries) {
      const stored = await cache.get(Array.from({ length: this.wanted }, (_, i) => this.keyOf(e, i)));
      let indices: number[];
      if (stored[0] === undefined) indices = [0];
      else if (pTrueFromLogprobs(stored[0].logprobs) !== undefined) indices = [];
      else indices = stored.flatMap((s, i) => (s === undefined ? [i] : []));
      if (indices.length === 0) {
        this.counts.cached++;
        continue;
      }
      // Runs of consecutive missing indices, cut at perRequest.
      for (let k = 0; k < indices.length; ) {
        let count = 1;
        while (count < this.perRequest && k + count < indices.length && indices[k + count] === indices[k] + count) count++;
        const first = indices[k];
        const customId = pTrueCustomId(this.tag, e.hash, first, count);
        this.counts.requests++;
        yield { customId, questionId: e.question.id, first, count, line: requestLine(this.api, ctx, customId, e.messages, effectiveSettings(ctx.caps, P_TRUE_SETTINGS, count)) };
        k += count;
      }
    }
  }

  locate(customId: string): PTrueLocated {
    const d = decodeCustomId(customId);
    if (!d || d.kind !== 'p-true') {
      const what = d?.kind === 'sample' ? 'a sampling request (read it without --p-true, or before every sample is stored)' : d ? `a ${d.kind} request` : 'not a request of this app';
      return { ok: false, kind: 'unknown-id', message: `custom_id "${customId.slice(0, 80)}" is not a p(True) request: ${what}` };
    }
    if (d.tag !== this.tag) return { ok: false, kind: 'foreign-id', message: `custom_id ${customId} belongs to another p(True) request set (tag ${d.tag}; this run's is ${this.tag}: different provider, model or base URL)` };
    const entry = this.byHash.get(d.qHash);
    if (!entry) return { ok: false, kind: 'unknown-id', message: `custom_id ${customId} names a question that is not in this dataset, or whose proposed answer changed since the request was written` };
    if (d.count < 1 || d.first + d.count > this.wanted) return { ok: false, kind: 'unknown-id', message: `custom_id ${customId} asks for replies ${d.first}..${d.first + d.count - 1}, outside 0..${this.wanted - 1}` };
    return { ok: true, entry, first: d.first, count: d.count };
  }
}

/**
 * The p(True) set of a sampling request set whose samples are all stored: each question's answers
 * as its row holds them (an adaptive question's used slots), read from the cache, so the proposed
 * answer is the one the direct path proposes over the same row.
 */
export async function pTrueSetForSamples(set: SampleRequestSet, spec: PTrueSpec, cache: SampleCache): Promise<PTrueRequestSet> {
  const questions: PTrueQuestion[] = [];
  for (let from = 0; from < set.questions.length; from += READ_CHUNK) {
    const chunk = set.questions.slice(from, from + READ_CHUNK);
    const stored = await readQuestions(cache, await Promise.all(chunk.map((q) => set.keyBase(q))), set.spec.n);
    chunk.forEach((q, i) => {
      const used = set.usedSamples(stored[i]);
      // A question still missing samples (or not stopped by its rule) has no row yet: nothing to ask.
      if (!used || used.samples.some((x) => x === undefined)) return;
      questions.push({ id: q.id, question: q.question, answers: used.samples.map((x) => x!.answer) });
    });
  }
  return PTrueRequestSet.create(set.spec.model, spec, questions);
}
