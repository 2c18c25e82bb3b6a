/** Shared inputs of the batch unit tests: a few questions, settings, and result lines in each service's shape. */
import type { Question } from '../../../src/model/rows.ts';
import type { BatchApi } from '../../../src/batch/service.ts';
import type { BatchModel } from '../../../src/batch/request-lines.ts';

export const QUESTIONS: Question[] = [
  { id: 'q1', question: 'What is the capital of France?', answer: 'Paris' },
  { id: 'q2', question: 'Who wrote Hamlet?', answer: 'Shakespeare' },
  { id: 'q3', question: 'How many legs has a spider?', answer: '8' },
];

export const SETTINGS = { temperature: 1, maxTokens: 256 };

export const MODELS: Record<BatchApi, BatchModel> = {
  openai: { kind: 'openai', preset: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'gpt-4o-mini' },
  anthropic: { kind: 'anthropic', preset: 'anthropic', baseUrl: 'http://127.0.0.1:1/v1', model: 'claude-haiku-4-5' },
  gemini: { kind: 'gemini', preset: 'gemini', baseUrl: 'http://127.0.0.1:1/v1beta', model: 'gemini-2.5-flash' },
};

export const reply = (answer: string, conf = 70) => `Reasoning.\nAnswer: ${answer}\nConfidence: ${conf}%`;

/** A successful result line for a request asking `count` replies, in the service's own shape. */
export function successLine(api: BatchApi, customId: string, texts: string[]): string {
  if (api === 'openai') {
    return JSON.stringify({
      id: `batch_req_${customId}`, custom_id: customId,
      response: { status_code: 200, request_id: 'r', body: { choices: texts.map((t, i) => ({ index: i, message: { role: 'assistant', content: t }, finish_reason: 'stop' })), usage: { prompt_tokens: 10, completion_tokens: 5 } } },
      error: null,
    });
  }
  if (api === 'anthropic') {
    return JSON.stringify({ custom_id: customId, result: { type: 'succeeded', message: { content: [{ type: 'text', text: texts[0] }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 5 } } } });
  }
  return JSON.stringify({ key: customId, response: { candidates: texts.map((t) => ({ content: { role: 'model', parts: [{ text: t }] }, finishReason: 'STOP' })), usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5 } } });
}

export function errorLine(api: BatchApi, customId: string, message: string): string {
  if (api === 'openai') return JSON.stringify({ id: 'x', custom_id: customId, response: { status_code: 500, body: { error: { message, type: 'server_error' } } }, error: null });
  if (api === 'anthropic') return JSON.stringify({ custom_id: customId, result: { type: 'errored', error: { type: 'error', error: { type: 'api_error', message } } } });
  return JSON.stringify({ key: customId, error: { code: 500, message, status: 'INTERNAL' } });
}
