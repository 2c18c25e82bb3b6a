/**
 * The sampling request set of a run for one model: which requests a batch must carry, built from
 * the run's questions, settings and the sample cache. Sample keys are derived exactly as
 * interactive sampling derives them (questionKeys → sampleKey), so whatever is cached — from an
 * interactive run or an earlier batch — is skipped, and results are stored where interactive
 * sampling would look for them. Keys are computed per question when needed, never all at once,
 * so 2 million samples do not mean 2 million keys in memory.
 *
 * An adaptive run (spec.adaptive, n its maximum) is asked a round at a time: the requests are each
 * question's current round, read off the cache by replaying the stopping rule over the answers
 * stored (pipeline/adaptive-slots.ts); once a round's results are stored, the next call plans the
 * next round, and a question the rule has stopped asks nothing more.
 */
import { capabilitiesFor, effectiveSettings } from '../providers/capabilities.ts';
import type { GenerationSettings } from '../model/provider.ts';
import { DEFAULT_GENERATION_PROMPT, fillPrompt, generationMessages, validatePromptTemplate } from '../pipeline/prompts.ts';
import { keyAt, readQuestions, type SampleCache, storedIndices } from '../model/sample-cache.ts';
import { questionKeyBase } from '../pipeline/sampling.ts';
import { firstRowPerId, type Question, type Result, type Sample } from '../model/rows.ts';
import { adaptiveRuleOf, type AdaptiveSettings } from '../model/run-spec.ts';
import { adaptiveRuleProblems, type AdaptiveRule } from '../core/adaptive-rule.ts';
import { adaptiveState, answerKey } from '../pipeline/adaptive-slots.ts';
import { decodeCustomId, questionHash, requestSetTag, sampleCustomId } from './custom-id.ts';
import { type BatchModel, requestLine, wireContextFor } from './request-lines.ts';

/** Questions whose stored samples are looked up at once when planning (one cache read per chunk). */
const PLAN_CHUNK = 256;

export interface SampleBatchSpec {
  model: BatchModel;
  settings: GenerationSettings;
  /** Samples per question; with `adaptive`, the most a question gets. */
  n: number;
  /** Sample in rounds stopped by this rule (core/adaptive-rule.ts, n its maximum): requests() plans the current round. */
  adaptive?: AdaptiveSettings;
  promptTemplate?: string;
  questions: Question[];
}

/** One planned request: `count` samples of one question from index `first`. */
export interface PlannedRequest {
  customId: string;
  questionId: string;
  first: number;
  count: number;
  line: Record<string, unknown>;
}

export interface PlanCounts {
  questions: number;
  /** Samples the run may take: questions × n (for an adaptive run, the most it may take). */
  samples: number;
  cached: number;
  requests: number;
  /** An adaptive run: questions the rule has stopped (nothing more to ask of them). */
  stopped?: number;
}

/** Where a custom_id points, or why it points nowhere. */
export type Located = { ok: true; question: Question; first: number; count: number } | { ok: false; kind: 'unknown-id' | 'foreign-id'; message: string };

export class SampleRequestSet {
  readonly api: BatchModel['kind'];
  /** Replies one request may ask for: `n` where the API has it, else 1. */
  readonly perRequest: number;
  readonly counts: PlanCounts = { questions: 0, samples: 0, cached: 0, requests: 0 };

  private constructor(
    readonly spec: SampleBatchSpec & { promptTemplate: string },
    readonly tag: string,
    readonly questions: Question[],
    private readonly byHash: Map<string, Question>,
    private readonly hashOf: Map<string, string>,
  ) {
    this.api = spec.model.kind;
    const maxN = capabilitiesFor(spec.model.preset, spec.model.model, spec.model.kind).maxN;
    this.perRequest = Math.max(1, Math.min(maxN, spec.n));
    this.counts.questions = questions.length;
    this.counts.samples = questions.length * spec.n;
    this.rule = adaptiveRuleOf(spec);
  }

  /** An adaptive run's whole rule (n its maximum); undefined for fixed n. */
  readonly rule: AdaptiveRule | undefined;

  static async create(spec: SampleBatchSpec): Promise<Result<SampleRequestSet>> {
    const promptTemplate = spec.promptTemplate ?? DEFAULT_GENERATION_PROMPT;
    const checked = validatePromptTemplate(promptTemplate);
    if (!checked.ok) return checked;
    if (!Number.isInteger(spec.n) || spec.n < 1 || spec.n > 9999) {
      return { ok: false, error: { kind: 'settings', message: `Samples per question must be a whole number from 1 to 9999 (got ${spec.n}).` } };
    }
    const ruleProblems = spec.adaptive ? adaptiveRuleProblems({ ...spec.adaptive, maxSamples: spec.n }) : [];
    if (ruleProblems.length > 0) return { ok: false, error: { kind: 'settings', message: `Adaptive sampling: ${ruleProblems.join('; ')}.` } };
    const { preset, baseUrl, model } = spec.model;
    const tag = await requestSetTag({ preset, baseUrl: baseUrl.replace(/\/+$/, ''), model, prompt: promptTemplate, settings: spec.settings });
    // First row per id wins, as in interactive sampling.
    const questions = firstRowPerId(spec.questions);
    const byHash = new Map<string, Question>();
    const hashOf = new Map<string, string>();
    for (const q of questions) {
      const h = await questionHash(q);
      const other = byHash.get(h);
      if (other) return { ok: false, error: { kind: 'dataset', message: `Questions "${other.id}" and "${q.id}" share a request id hash; rename one of them.`, where: `question ${q.id}` } };
      byHash.set(h, q);
      hashOf.set(q.id, h);
    }
    return { ok: true, value: new SampleRequestSet({ ...spec, promptTemplate }, tag, questions, byHash, hashOf) };
  }

  /** The key base of a question's samples (sample i is keyAt(base, i)), as interactive sampling derives it: one digest. */
  keyBase(q: Question): Promise<string> {
    return questionKeyBase({ config: this.spec.model }, this.spec.settings, this.spec.promptTemplate, q);
  }

  /** The sample keys of `count` samples of a question from `first`, as interactive sampling names them. */
  async keysOf(q: Question, first = 0, count = this.spec.n): Promise<string[]> {
    const base = await this.keyBase(q);
    return Array.from({ length: count }, (_, j) => keyAt(base, first + j));
  }

  /**
   * The requests still needed, question by question: the indices missing from the cache, in runs
   * of consecutive indices cut at `perRequest`. Counts are updated as it goes.
   */
  async *requests(cache: SampleCache): AsyncGenerator<PlannedRequest> {
    this.counts.cached = 0;
    this.counts.requests = 0;
    if (this.rule) this.counts.stopped = 0;
    const ctx = wireContextFor(this.spec.model);
    const n = this.spec.n;
    // A chunk of questions per cache read, key-only where the cache can (no sample deserialized);
    // an adaptive run reads the answers, which its rule is replayed over.
    for (let from = 0; from < this.questions.length; from += PLAN_CHUNK) {
      const chunk = this.questions.slice(from, from + PLAN_CHUNK);
      const bases = await Promise.all(chunk.map((q) => this.keyBase(q)));
      const storedOf = this.rule ? (await readQuestions(cache, bases, n)).map((samples) => this.currentRound(samples)) : await storedIndices(cache, bases, n);
      for (let c = 0; c < chunk.length; c++) {
        const q = chunk[c];
        const stored = storedOf[c];
        const messages = generationMessages(fillPrompt(this.spec.promptTemplate, q));
        let i = 0;
        while (i < n) {
          if (stored[i]) {
            // An adaptive run's cached slots are counted by currentRound (its `true` is also "not this round").
            if (!this.rule) this.counts.cached++;
            i++;
            continue;
          }
          let count = 1;
          while (count < this.perRequest && i + count < n && !stored[i + count]) count++;
          const customId = sampleCustomId(this.tag, this.hashOf.get(q.id)!, i, count);
          const effective = effectiveSettings(ctx.caps, this.spec.settings, count);
          this.counts.requests++;
          yield { customId, questionId: q.id, first: i, count, line: requestLine(this.api, ctx, customId, messages, effective) };
          i += count;
        }
      }
    }
  }

  /**
   * An adaptive question's slots as requests() plans them: true where nothing is to be asked (a
   * slot stored, or outside the current round); false for the current round's missing slots.
   * Counts the slots the rule has reached as cached, and a stopped question.
   */
  private currentRound(samples: (Sample | undefined)[]): boolean[] {
    const state = adaptiveState(samples.map((s) => (s === undefined ? undefined : answerKey(s.answer))), this.rule!);
    const plan = new Array<boolean>(this.spec.n).fill(true);
    if (state.done) {
      this.counts.stopped! += 1;
      this.counts.cached += state.samples;
      return plan;
    }
    for (const i of state.missing) plan[i] = false;
    // Cached: the stored slots the rule has reached, up to this round's end (later ones are not yet its own).
    const end = state.plan.selection + state.plan.heldOut + (state.plan.next.phase === 'done' ? 0 : state.plan.next.draw);
    for (let i = 0; i < end; i++) if (samples[i] !== undefined) this.counts.cached++;
    return plan;
  }

  /**
   * A question's samples as its row holds them: for an adaptive run the slots the rule used and
   * its selection block (undefined while the rule has not stopped it); for fixed n all n.
   */
  usedSamples(samples: (Sample | undefined)[]): { samples: (Sample | undefined)[]; selection?: number } | undefined {
    if (!this.rule) return { samples };
    const state = adaptiveState(samples.map((s) => (s === undefined ? undefined : answerKey(s.answer))), this.rule);
    return state.done ? { samples: samples.slice(0, state.samples), selection: state.selection } : undefined;
  }

  locate(customId: string): Located {
    const d = decodeCustomId(customId);
    if (!d || d.kind !== 'sample') return { ok: false, kind: 'unknown-id', message: `custom_id "${customId.slice(0, 80)}" is not a sampling request of this app` };
    if (d.tag !== this.tag) {
      return { ok: false, kind: 'foreign-id', message: `custom_id ${customId} belongs to another request set (tag ${d.tag}; this run's is ${this.tag}: different provider, model, prompt or settings)` };
    }
    const question = this.byHash.get(d.qHash);
    if (!question) return { ok: false, kind: 'unknown-id', message: `custom_id ${customId} names a question that is not in this dataset (or whose text changed)` };
    if (d.count < 1 || d.first + d.count > this.spec.n) {
      return { ok: false, kind: 'unknown-id', message: `custom_id ${customId} asks for samples ${d.first}..${d.first + d.count - 1}, outside 0..${this.spec.n - 1}` };
    }
    return { ok: true, question, first: d.first, count: d.count };
  }
}
