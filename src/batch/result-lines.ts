/**
 * Reading one line of a service's result file into a ResultOutcome, or saying exactly what is wrong
 * with it. The shapes:
 *
 *   OpenAI     {"id", "custom_id", "response": {"status_code": 200, "body": {chat.completion}}, "error": null}
 *              error file: {"custom_id", "response": null | {status_code ≥ 400, body: {error}}, "error": {code, message}}
 *   Anthropic  {"custom_id", "result": {"type": "succeeded", "message": {…}}}
 *              | {"type": "errored", "error": {"type": "error", "error": {type, message}}} | {"type": "canceled" | "expired"}
 *   Gemini     {"key", "response": {GenerateContentResponse}} | {"key", "error" | "status": {code, message, status}}
 */
import type { Reply } from '../model/provider.ts';
import { isRecord, num } from '../providers/wire.ts';
import type { LineProblem, ResultOutcome } from './outcomes.ts';
import type { BatchApi } from './service.ts';

export type ParsedLine = { outcome: ResultOutcome } | { problem: Omit<LineProblem, 'file' | 'line'> };

const bad = (message: string, customId?: string, kind: LineProblem['kind'] = 'bad-shape'): ParsedLine => ({ problem: { kind, message, customId } });

function errorOf(v: unknown, fallbackCode: string): { code: string; message: string; status?: number } {
  if (!isRecord(v)) return { code: fallbackCode, message: typeof v === 'string' ? v : 'no error detail given' };
  const inner = isRecord(v.error) ? v.error : v;
  const code = String(inner.code ?? inner.type ?? inner.status ?? fallbackCode);
  const status = typeof inner.code === 'number' ? inner.code : undefined;
  return { code, message: String(inner.message ?? 'no error message given'), ...(status !== undefined ? { status } : {}) };
}

function openaiReplies(body: unknown, id: string): { replies: Reply[]; usage: { inputTokens: number; outputTokens: number } } | ParsedLine {
  if (!isRecord(body)) return bad(`custom_id ${id}: response.body is not an object`, id);
  if (!Array.isArray(body.choices) || body.choices.length === 0) return bad(`custom_id ${id}: the response has no choices`, id, 'missing-choices');
  const replies: Reply[] = [];
  for (const c of body.choices) {
    if (!isRecord(c) || !isRecord(c.message)) return bad(`custom_id ${id}: a choice has no message`, id, 'missing-choices');
    replies.push({ text: typeof c.message.content === 'string' ? c.message.content : '', finishReason: typeof c.finish_reason === 'string' ? c.finish_reason : null });
  }
  const u = isRecord(body.usage) ? body.usage : {};
  return { replies, usage: { inputTokens: num(u.prompt_tokens), outputTokens: num(u.completion_tokens) } };
}

function parseOpenai(v: Record<string, unknown>): ParsedLine {
  const id = v.custom_id;
  if (typeof id !== 'string' || id === '') return bad('no "custom_id" string on this line');
  if (v.error !== null && v.error !== undefined) {
    const error = errorOf(v.error, 'error');
    return { outcome: { customId: id, ok: false, error, expired: /expired/i.test(error.code) } };
  }
  if (!isRecord(v.response)) return bad(`custom_id ${id}: neither "response" nor "error" is set`, id);
  const status = v.response.status_code;
  if (typeof status !== 'number') return bad(`custom_id ${id}: response.status_code is missing`, id);
  if (status < 200 || status >= 300) {
    const error = { ...errorOf(v.response.body, String(status)), status };
    return { outcome: { customId: id, ok: false, error, expired: false } };
  }
  const got = openaiReplies(v.response.body, id);
  if ('problem' in got || 'outcome' in got) return got;
  return { outcome: { customId: id, ok: true, ...got } };
}

function parseAnthropic(v: Record<string, unknown>): ParsedLine {
  const id = v.custom_id;
  if (typeof id !== 'string' || id === '') return bad('no "custom_id" string on this line');
  const r = v.result;
  if (!isRecord(r)) return bad(`custom_id ${id}: no "result" object`, id);
  switch (r.type) {
    case 'succeeded': {
      const m = r.message;
      if (!isRecord(m) || !Array.isArray(m.content)) return bad(`custom_id ${id}: result.message has no content list`, id, 'missing-choices');
      const text = m.content.filter((b) => isRecord(b) && b.type === 'text').map((b) => String((b as Record<string, unknown>).text ?? '')).join('');
      const u = isRecord(m.usage) ? m.usage : {};
      return {
        outcome: {
          customId: id, ok: true,
          replies: [{ text, finishReason: typeof m.stop_reason === 'string' ? m.stop_reason : null }],
          usage: { inputTokens: num(u.input_tokens), outputTokens: num(u.output_tokens) },
        },
      };
    }
    case 'errored':
      return { outcome: { customId: id, ok: false, error: errorOf(r.error, 'errored'), expired: false } };
    case 'canceled':
      return { outcome: { customId: id, ok: false, error: { code: 'canceled', message: 'the batch was canceled before this request ran' }, expired: false } };
    case 'expired':
      return { outcome: { customId: id, ok: false, error: { code: 'expired', message: 'the batch expired before this request ran' }, expired: true } };
    default:
      return bad(`custom_id ${id}: unknown result type ${JSON.stringify(r.type)}`, id);
  }
}

function parseGemini(v: Record<string, unknown>): ParsedLine {
  const id = v.key ?? (isRecord(v.metadata) ? v.metadata.key : undefined);
  if (typeof id !== 'string' || id === '') return bad('no "key" string on this line');
  const err = v.error ?? v.status;
  if (err !== undefined && err !== null && !isRecord(v.response)) {
    const error = errorOf(err, 'error');
    return { outcome: { customId: id, ok: false, error, expired: /expired|DEADLINE/i.test(`${error.code} ${error.message}`) } };
  }
  const resp = v.response;
  if (!isRecord(resp)) return bad(`key ${id}: neither "response" nor "error" is set`, id);
  if (!Array.isArray(resp.candidates) || resp.candidates.length === 0) {
    const blocked = isRecord(resp.promptFeedback) ? ` (prompt blocked: ${String(resp.promptFeedback.blockReason ?? '')})` : '';
    return bad(`key ${id}: the response has no candidates${blocked}`, id, 'missing-choices');
  }
  const replies: Reply[] = resp.candidates.filter(isRecord).map((c) => {
    const parts = isRecord(c.content) && Array.isArray(c.content.parts) ? c.content.parts : [];
    // Thinking models return thought parts: only the answer text counts, as interactively.
    const text = parts.filter((p) => isRecord(p) && typeof p.text === 'string' && p.thought !== true).map((p) => (p as { text: string }).text).join('');
    return { text, finishReason: typeof c.finishReason === 'string' ? c.finishReason : null };
  });
  const u = isRecord(resp.usageMetadata) ? resp.usageMetadata : {};
  return { outcome: { customId: id, ok: true, replies, usage: { inputTokens: num(u.promptTokenCount), outputTokens: num(u.candidatesTokenCount) + num(u.thoughtsTokenCount) } } };
}

/** One result line (its text) → an outcome, or the problem with it. Blank lines are the caller's to skip. */
export function parseResultLine(api: BatchApi, text: string): ParsedLine {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { problem: { kind: 'bad-json', message: `not valid JSON (${(e as Error).message.slice(0, 80)})` } };
  }
  if (!isRecord(v)) return bad('a result line must be a JSON object');
  if (api === 'openai') return parseOpenai(v);
  if (api === 'anthropic') return parseAnthropic(v);
  return parseGemini(v);
}
