/**
 * What a run will cost before anything is sent: requests, tokens and dollars, per model and in
 * all. Input tokens are counted from the filled prompts (about 4 characters per token); output
 * is a range, from a typical short reply to every reply using the whole token budget.
 */
import { capabilitiesFor } from '../../providers/capabilities';
import { priceFor, type PriceTable } from '../../model/cost';
import { fillPrompt } from '../../pipeline/prompts';
import { modelLabel, type ModelSpec, type RunSpec } from '../../model/run-spec';
import { estimateMultipleChoiceRows } from './multiple-choice-estimate';
import { estimateRow, promptTokens, type Estimate } from './estimate-row';

/** Tokens of a typical reply that ends with the Answer and Confidence lines. */
export const TYPICAL_REPLY_TOKENS = 60;
/** Rough size of one judge request and reply (clustering or grading), tokens. */
const JUDGE_IN = 700;
const JUDGE_OUT = 250;

function sampling(spec: RunSpec, model: ModelSpec, prices: PriceTable): Estimate {
  const { n, maxTokens, prompt } = spec.sampling;
  const maxN = Math.max(1, capabilitiesFor(model.preset, model.model).maxN);
  const perQuestion = Math.ceil(n / maxN);
  let input = 0;
  for (const q of spec.dataset.questions) input += promptTokens(fillPrompt(prompt, q)) * perQuestion;
  const samples = spec.dataset.questions.length * n;
  const out = { typical: samples * Math.min(maxTokens, TYPICAL_REPLY_TOKENS), max: samples * maxTokens };
  return estimateRow(modelLabel(model), { requests: spec.dataset.questions.length * perQuestion, samples, inputTokens: input, outputTokens: out }, priceFor(prices, model.preset, model.model));
}

function judge(label: string, model: ModelSpec, calls: number, prices: PriceTable): Estimate {
  const out = { typical: calls * JUDGE_OUT, max: calls * JUDGE_OUT * 2 };
  return estimateRow(label, { requests: calls, samples: 0, inputTokens: calls * JUDGE_IN, outputTokens: out }, priceFor(prices, model.preset, model.model));
}

export function estimateRun(spec: RunSpec, prices: PriceTable): { rows: Estimate[]; total: Estimate } {
  // A multiple-choice run has no judges: its requests are counted by multiple-choice-estimate.ts.
  const rows = spec.mc ? estimateMultipleChoiceRows({ ...spec, mc: spec.mc }, prices) : spec.models.map((m) => sampling(spec, m, prices));
  const perModelQuestions = spec.dataset.questions.length * spec.models.length;
  if (!spec.mc && spec.clustering.method === 'judge') rows.push(judge(`clustering judge ${modelLabel(spec.clustering.judge)}`, spec.clustering.judge, perModelQuestions, prices));
  if (!spec.mc && spec.grading.method === 'judge') rows.push(judge(`grading judge ${modelLabel(spec.grading.judge)}`, spec.grading.judge, perModelQuestions, prices));
  const sum = (f: (e: Estimate) => number) => rows.reduce((s, e) => s + f(e), 0);
  const sumCost = (f: (e: Estimate) => number | null) => (rows.some((e) => f(e) === null) ? null : rows.reduce((s, e) => s + (f(e) ?? 0), 0));
  return {
    rows,
    total: {
      label: 'total',
      requests: sum((e) => e.requests),
      samples: sum((e) => e.samples),
      inputTokens: sum((e) => e.inputTokens),
      outputTokens: { typical: sum((e) => e.outputTokens.typical), max: sum((e) => e.outputTokens.max) },
      cost: { typical: sumCost((e) => e.cost.typical), max: sumCost((e) => e.cost.max) },
    },
  };
}

export function formatUsd(v: number | null): string {
  if (v === null) return 'unknown (no price for this model)';
  if (v === 0) return '$0';
  return v < 0.01 ? '< $0.01' : `$${v.toFixed(2)}`;
}

export function formatCount(v: number): string {
  return v.toLocaleString('en-US');
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
