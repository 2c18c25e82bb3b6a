/**
 * From a run (RunSpec) to the batch request set of one of its models: the settings exactly as the
 * run's sample stage passes them to sampling (runner-sampling.ts), so batch and run share keys.
 */
import type { RunSpec } from '../model/run-spec.ts';
import type { Result } from '../model/rows.ts';
import { getPreset } from '../providers/presets.ts';
import { findWireFormat } from '../providers/wire-formats.ts';
import type { BatchApi } from './service.ts';
import { SampleRequestSet } from './request-set.ts';
import { samplingSettingsOf } from '../pipeline/sample-keys.ts';

/**
 * The wire format whose batch service a model's host runs: its preset says the host has it
 * (other OpenAI-compatible hosts differ or have none) and the formats' table that the format does.
 */
export function batchApiOf(model: { preset: string }): BatchApi | undefined {
  const preset = getPreset(model.preset);
  if (!preset?.batch || preset.kind === 'in-browser') return undefined;
  return findWireFormat(preset.kind)?.batch ? preset.kind : undefined;
}

export async function requestSetForRun(spec: RunSpec, modelIndex: number): Promise<Result<SampleRequestSet>> {
  const model = spec.models[modelIndex];
  if (!model) return { ok: false, error: { kind: 'settings', message: `The run has no model number ${modelIndex + 1}.` } };
  const api = batchApiOf(model);
  if (!api) return { ok: false, error: { kind: 'settings', message: `${model.preset} has no batch service this app can use (OpenAI, Anthropic and Gemini have).`, where: `${model.preset}/${model.model}` } };
  const s = spec.sampling;
  return SampleRequestSet.create({
    model: { kind: api, preset: model.preset, baseUrl: model.baseUrl, model: model.model },
    settings: samplingSettingsOf(s),
    n: s.n,
    ...(s.adaptive ? { adaptive: s.adaptive } : {}),
    promptTemplate: s.prompt,
    questions: spec.dataset.questions,
  });
}
