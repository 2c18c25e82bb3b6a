/**
 * The live counters of one run: requests, samples, tokens, cost from the price table, and an
 * ETA from the rate observed since the current stage started. Pure: the worker throttles and
 * posts snapshots, tests read them directly.
 */
import type { Usage } from '../model/provider';
import { costOf, priceFor, type Price, type PriceTable } from '../model/cost';
import { NO_USAGE, type UsageTotals } from '../model/sample-cache';
import { emptyProgress, type ModelSpec, type ProgressCounters, type RunProgress, type StageName } from '../model/run-spec';
import type { StageError } from '../model/rows';
import { scrubbedError, type Scrub } from '../providers/secret-scrub';

const MAX_ERRORS = 50;

/** What the run lifecycle (run-lifecycle.ts) says as it walks its phases; the meter follows these. */
export type PhaseEvent = { type: 'enter'; stage: StageName; total: number } | { type: 'finish'; stage: StageName; status: 'done' | 'failed' | 'skipped' };

export class RunMeter {
  readonly progress: RunProgress;
  private stageStart = { at: 0, done: 0 };

  constructor(
    initial: RunProgress | undefined,
    private readonly prices: PriceTable = {},
    private readonly now: () => number = () => Date.now(),
    /** The run's keys' scrubber: every error the run shows or stores goes through it. */
    private readonly scrub: Scrub = (text) => text,
  ) {
    // Counters carry over a resume, so tokens and cost cover the whole run.
    this.progress = initial ? structuredClone(initial) : emptyProgress();
  }

  /** Follows the lifecycle's phases: one entered counts towards its total from here, one finished is marked with how it ended. */
  onPhase(event: PhaseEvent): void {
    if (event.type === 'enter') this.enterStage(event.stage, event.total);
    else this.finishStage(event.stage, event.status);
  }

  enterStage(stage: StageName, total: number, cached = 0): void {
    this.progress.stage = stage;
    this.progress.stages[stage] = { status: 'running', done: cached, total, cached };
    this.stageStart = { at: this.now(), done: cached };
    this.progress.etaMs = null;
  }

  finishStage(stage: StageName, status: 'done' | 'failed' | 'skipped' = 'done'): void {
    this.progress.stages[stage].status = status;
    // Sampling counts stored samples (sampleCounters): a run whose refused questions were left out
    // ends short of its total, and the stage says so rather than claim every sample.
    const counted = stage === 'sample' && !this.progress.mc;
    if (status === 'done' && !counted) this.progress.stages[stage].done = this.progress.stages[stage].total;
    this.progress.etaMs = status === 'done' ? 0 : null;
  }

  /** Marks `count` items of the current stage done and updates the ETA. */
  advance(count = 1): void {
    const s = this.progress.stages[this.progress.stage];
    s.done += count;
    const elapsed = this.now() - this.stageStart.at;
    const doneSince = s.done - this.stageStart.done;
    this.progress.etaMs = doneSince > 0 && elapsed > 0 ? Math.round(((s.total - s.done) * elapsed) / doneSince) : null;
  }

  /**
   * Sampling counters: what the run had before this execution (`base`) plus each model's
   * cumulative counters so far. Samples count afresh each execution (cache hits included).
   */
  sampleCounters(base: Pick<RunProgress, 'requests' | 'tokens' | 'cost'>, perModel: ProgressCounters[]): void {
    const p = this.progress;
    const sum = (f: (c: ProgressCounters) => number) => perModel.reduce((s, c) => s + f(c), 0);
    p.requests = {
      done: base.requests.done + sum((c) => c.requests.done),
      failed: base.requests.failed + sum((c) => c.requests.failed),
      handled: (base.requests.handled ?? 0) + sum((c) => c.requests.handled ?? 0),
      // A gauge of requests waiting to retry now, not a running total: nothing carries over.
      retrying: sum((c) => c.requests.retrying),
    };
    p.tokens = { input: base.tokens.input + sum((c) => c.tokens.input), output: base.tokens.output + sum((c) => c.tokens.output) };
    p.cost = base.cost === null || perModel.some((c) => c.cost === null) ? null : base.cost + sum((c) => c.cost ?? 0);
    p.samples.done = sum((c) => c.samples.done);
    p.stages.sample.done = p.samples.done;
    // An adaptive run's total shrinks as questions stop: summed once every model has said its own.
    if (perModel.some((c) => c.samples.upTo !== undefined) && perModel.every((c) => c.samples.total > 0)) {
      p.samples.total = sum((c) => c.samples.total);
      p.samples.upTo = perModel.some((c) => c.samples.upTo === true);
      p.stages.sample.total = p.samples.total;
    }
    const etas = perModel.map((c) => c.etaMs).filter((e): e is number => e !== null);
    p.etaMs = etas.length ? Math.max(...etas) : null;
  }

  /** A judge's usage (clustering, grading): in the totals, and apart in `judge`, which the receipts do not cover. */
  addUsage(model: ModelSpec, usage: Usage): void {
    const judge = (this.progress.judge ??= { tokens: { input: 0, output: 0 }, cost: 0 });
    for (const counts of [this.progress.tokens, judge.tokens]) {
      counts.input += usage.inputTokens;
      counts.output += usage.outputTokens;
    }
    const price = priceFor(this.prices, model.preset, model.model);
    const add = price ? (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1e6 : null;
    this.progress.cost = add === null || this.progress.cost === null ? null : this.progress.cost + add;
    judge.cost = add === null || judge.cost === null ? null : judge.cost + add;
  }

  /**
   * The counters a resumed run starts from: its models' stored usage receipts (exactly what is
   * stored, whenever the last checkpoint was taken) plus the judges' part of the checkpoint.
   */
  baseFromReceipts(perModel: { usage: UsageTotals | undefined; price: Price | null }[]): Pick<RunProgress, 'requests' | 'tokens' | 'cost'> {
    const judge = this.progress.judge ?? { tokens: { input: 0, output: 0 }, cost: 0 };
    // The receipts count answered and failed requests; handled ones come from the checkpoint.
    const base = { requests: { done: 0, failed: 0, retrying: 0, handled: this.progress.requests.handled ?? 0 }, tokens: { ...judge.tokens }, cost: judge.cost as number | null };
    for (const { usage, price } of perModel) {
      const u = usage ?? NO_USAGE;
      base.requests.done += u.requests;
      base.requests.failed += u.failed;
      base.tokens.input += u.input;
      base.tokens.output += u.output;
      const cost = costOf({ input: u.input, output: u.output }, price);
      base.cost = base.cost === null || (cost === null && (u.input > 0 || u.output > 0)) ? null : base.cost + (cost ?? 0);
    }
    this.progress.ledger = true;
    return base;
  }

  /** Records an error, scrubbed of the run's keys; returns the scrubbed error (what the run may store). */
  error(error: StageError): StageError {
    const clean = scrubbedError(error, this.scrub);
    this.progress.errors.push(clean);
    if (this.progress.errors.length > MAX_ERRORS) this.progress.errors.splice(0, this.progress.errors.length - MAX_ERRORS);
    return clean;
  }

  /** Records a handled event (a retry, a request sent again another way), scrubbed like an error: listed apart, never as an error. */
  handled(event: StageError): void {
    const list = (this.progress.handled ??= []);
    list.push(scrubbedError(event, this.scrub));
    if (list.length > MAX_ERRORS) list.splice(0, list.length - MAX_ERRORS);
  }

  note(text: string): void {
    if (!this.progress.notes.includes(text)) this.progress.notes.push(text);
  }

  snapshot(): RunProgress {
    return structuredClone(this.progress);
  }
}
