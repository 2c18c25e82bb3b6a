import { describe, expect, it } from 'vitest';
import { capabilitiesFor, effectiveSettings } from '../../../src/providers/capabilities.ts';
import { PRESETS, getPreset } from '../../../src/providers/presets.ts';

describe('presets', () => {
  it('name the usual key variables and whether a key is needed', () => {
    const env = Object.fromEntries(Object.values(PRESETS).map((p) => [p.id, p.keyEnv]));
    expect(env).toMatchObject({
      openai: 'OPENAI_API_KEY', xai: 'XAI_API_KEY', mistral: 'MISTRAL_API_KEY', openrouter: 'OPENROUTER_API_KEY', groq: 'GROQ_API_KEY',
      together: 'TOGETHER_API_KEY', deepseek: 'DEEPSEEK_API_KEY', anthropic: 'ANTHROPIC_API_KEY', gemini: 'GEMINI_API_KEY',
    });
    for (const local of ['ollama', 'lmstudio', 'vllm', 'llamacpp']) expect(getPreset(local)).toMatchObject({ kind: 'openai', needsKey: false, local: true });
    expect(getPreset('anthropic')?.kind).toBe('anthropic');
    expect(getPreset('gemini')?.kind).toBe('gemini');
    expect(getPreset('toString')).toBeUndefined();
    for (const p of Object.values(PRESETS)) if (!p.custom && p.kind !== 'in-browser') expect(p.baseUrl).toMatch(/^https?:\/\//);
  });

  it('offer another OpenAI-compatible server as its own choice: no address, no key needed, nothing known', () => {
    expect(getPreset('custom')).toMatchObject({ kind: 'openai', baseUrl: '', needsKey: false, custom: true, keyEnv: null });
    expect(getPreset('custom')?.local).toBeUndefined();
    expect(capabilitiesFor('custom', 'anything')).toMatchObject({ maxN: 128, logprobs: true, unknown: true });
    for (const id of Object.keys(PRESETS).filter((id) => id !== 'custom')) expect(capabilitiesFor(id, 'x').unknown, id).toBe(false);
  });
});

describe('capability table', () => {
  it.each([
    ['openai', 'gpt-4o-mini', 128],
    ['openai', 'o3-mini', 128],
    ['groq', 'llama-3.3-70b', 1],
    ['openrouter', 'anything', 1],
    ['ollama', 'llama3', 1],
    ['llamacpp', 'x', 1],
    ['vllm', 'x', 128],
    ['anthropic', 'claude-sonnet-4-5', 1],
    ['gemini', 'gemini-2.5-flash', 8],
    ['gemini', 'gemini-3-pro-preview', 1],
    ['gemini', 'gemini-1.5-pro', 1],
    ['custom-openai-compatible', 'x', 128],
  ])('%s %s: n per request %i', (preset, model, maxN) => {
    expect(capabilitiesFor(preset, model).maxN).toBe(maxN);
  });

  it('reasoning models get no sampling parameters or logprobs; others are clamped to their range', () => {
    const o3 = capabilitiesFor('openai', 'o3');
    expect(effectiveSettings(o3, { temperature: 0.3, topP: 0.5, maxTokens: 9, logprobs: true }, 1)).toEqual({ n: 1, maxTokens: 9 });
    expect(capabilitiesFor('openai', 'gpt-5').rejectsSampling).toBe(true);
    expect(capabilitiesFor('openai', 'gpt-5.1-chat-latest').rejectsSampling).toBe(false);
    const claude = capabilitiesFor('anthropic', 'claude-opus-4-1');
    expect(effectiveSettings(claude, { temperature: 1.7, topP: 0.9, maxTokens: 9, logprobs: true }, 1)).toEqual({ n: 1, maxTokens: 9, temperature: 1 });
    const gpt = capabilitiesFor('openai', 'gpt-4o');
    expect(effectiveSettings(gpt, { temperature: 1, topP: 0.95, maxTokens: 9, logprobs: true, topLogprobs: 50 }, 4)).toEqual({
      n: 4, maxTokens: 9, temperature: 1, topP: 0.95, logprobs: true, topLogprobs: 20,
    });
    expect(effectiveSettings(capabilitiesFor('groq', 'x'), { temperature: 1, maxTokens: 9, logprobs: true }, 1).logprobs).toBeUndefined();
  });
});
