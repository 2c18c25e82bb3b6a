/**
 * What a run will cost before anything is sent: requests, tokens and dollars, per model and in
 * all. Input tokens are counted from the filled prompts (about 4 characters per token); output
 * is a range, from a typical short reply to every reply using the whole token budget.
 */
import { capabilitiesFor } from '../../providers/capabilities';
// Rows name models as people read them; prices stay keyed by preset/model (priceFor).
import { getPreset, modelOnProvider } from '../../providers/presets';
import { priceFor, type PriceTable } from '../../model/cost';
import { fillPrompt } from '../../pipeline/prompts';
import type { ModelSpec, RunSpec } from '../../model/run-spec';
import { clusteringApiModel } from '../../model/clustering-methods';
import { estimateMultipleChoiceRows } from './multiple-choice-estimate';
import { estimateRow, promptTokens, type Estimate } from './estimate-row';
import { pTrueEstimate } from './p-true-estimate';

/** Tokens of a typical reply that ends with the Answer and Confidence lines. */
export const TYPICAL_REPLY_TOKENS = 60;
/** Rough size of one judge request and reply (clustering or grading), tokens. */
const JUDGE_IN = 700;
const JUDGE_OUT = 250;

function sampling(spec: RunSpec, model: ModelSpec, prices: PriceTable): Estimate {
  const { n, maxTokens, prompt } = spec.sampling;
  const caps = capabilitiesFor(model.preset, model.model);
  const perQuestion = Math.ceil(n / Math.max(1, caps.maxN));
  let prompts = 0;
  for (const q of spec.dataset.questions) prompts += promptTokens(fillPrompt(prompt, q));
  const questions = spec.dataset.questions.length;
  const samples = questions * n;
  const out = { typical: samples * Math.min(maxTokens, TYPICAL_REPLY_TOKENS), max: samples * maxTokens };
  // n per request is probed at run time on a server the table does not know: from n per request to one.
  const upTo = caps.unknown && perQuestion < n ? { requests: questions * n, inputTokens: prompts * n } : undefined;
  return estimateRow(
    modelOnProvider(model.preset, model.model),
    { requests: questions * perQuestion, samples, inputTokens: prompts * perQuestion, outputTokens: out, ...(upTo ? { upTo } : {}), local: isLocal(model) },
    priceFor(prices, model.preset, model.model),
  );
}

const isLocal = (model: Pick<ModelSpec, 'preset'>): boolean => getPreset(model.preset)?.local === true;

function judge(label: string, model: ModelSpec, calls: number, prices: PriceTable): Estimate {
  const out = { typical: calls * JUDGE_OUT, max: calls * JUDGE_OUT * 2 };
  return estimateRow(label, { requests: calls, samples: 0, inputTokens: calls * JUDGE_IN, outputTokens: out, local: isLocal(model) }, priceFor(prices, model.preset, model.model));
}

export function estimateRun(spec: RunSpec, prices: PriceTable): { rows: Estimate[]; total: Estimate } {
  // A multiple-choice run has no judges: its requests are counted by multiple-choice-estimate.ts.
  const rows = spec.mc ? estimateMultipleChoiceRows({ ...spec, mc: spec.mc }, prices) : spec.models.map((m) => sampling(spec, m, prices));
  // p(True), where chosen: its own row per model after the sampling rows.
  for (const m of spec.mc ? [] : spec.models) {
    const row = pTrueEstimate(spec, m, prices);
    if (row) rows.push(row);
  }
  const perModelQuestions = spec.dataset.questions.length * spec.models.length;
  const clusteringJudge = spec.mc ? undefined : clusteringApiModel(spec.clustering);
  if (clusteringJudge) rows.push(judge(`clustering judge ${modelOnProvider(clusteringJudge.preset, clusteringJudge.model)}`, clusteringJudge, perModelQuestions, prices));
  if (!spec.mc && spec.grading.method === 'judge') rows.push(judge(`grading judge ${modelOnProvider(spec.grading.judge.preset, spec.grading.judge.model)}`, spec.grading.judge, perModelQuestions, prices));
  const sum = (f: (e: Estimate) => number) => rows.reduce((s, e) => s + f(e), 0);
  const sumCost = (f: (e: Estimate) => number | null) => (rows.some((e) => f(e) === null) ? null : rows.reduce((s, e) => s + (f(e) ?? 0), 0));
  const probed = rows.some((e) => e.upTo);
  return {
    rows,
    total: {
      label: 'total',
      requests: sum((e) => e.requests),
      samples: sum((e) => e.samples),
      inputTokens: sum((e) => e.inputTokens),
      outputTokens: { typical: sum((e) => e.outputTokens.typical), max: sum((e) => e.outputTokens.max) },
      cost: { typical: sumCost((e) => e.cost.typical), max: sumCost((e) => e.cost.max) },
      ...(probed ? { upTo: { requests: sum((e) => e.upTo?.requests ?? e.requests), inputTokens: sum((e) => e.upTo?.inputTokens ?? e.inputTokens) } } : {}),
      local: rows.length > 0 && rows.every((e) => e.local === true),
    },
  };
}

/** `local`: the cost is that of local servers, whose 0 says so ("$0 (local)"); elsewhere 0 is a price someone set. */
export function formatUsd(v: number | null, { local = false }: { local?: boolean } = {}): string {
  if (v === null) return 'unknown (no price for this model)';
  if (v === 0) return local ? '$0 (local)' : '$0';
  return v < 0.01 ? '< $0.01' : `$${v.toFixed(2)}`;
}

export function formatCount(v: number): string {
  return v.toLocaleString('en-US');
}

/** A count, or its range where samples per request are probed at run time ("20 – 100"). */
export function formatCountRange(fewest: number, most: number | undefined): string {
  return most === undefined || most === fewest ? formatCount(fewest) : `${formatCount(fewest)} – ${formatCount(most)}`;
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
