/**
 * The three wire formats as the mock server speaks them: reading a request, checking its key,
 * writing replies, and each API's own error bodies.
 */
import type { IncomingHttpHeaders } from 'node:http';

export type Api = 'openai' | 'anthropic' | 'gemini';

/** A request as the mock (and a custom responder) sees it, independent of the wire format. */
export interface ParsedRequest {
  api: Api;
  model: string;
  system: string;
  /** Text of the last user message: where the question is. */
  user: string;
  messages: { role: string; content: string }[];
  n: number;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  json: boolean;
  body: Record<string, unknown>;
}

export interface MockReply {
  text: string;
  inputTokens: number;
  outputTokens: number;
  /** OpenAI `choices[i].logprobs.content` entries; sent only when the request asked for logprobs. */
  logprobs?: OpenAiLogprobEntry[];
}

/** One token of OpenAI's `logprobs.content` list. */
export interface OpenAiLogprobEntry {
  token: string;
  logprob: number;
  top_logprobs?: { token: string; logprob: number }[];
}

export type ErrorKind = 'auth' | 'rate-limit' | 'quota' | 'server-500' | 'server-503' | 'overloaded-529' | 'bad-request' | 'not-found';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

function contentText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((p) => (isRec(p) && typeof p.text === 'string' ? p.text : '')).join('');
  return '';
}

export function routeApi(method: string, path: string): { api: Api; model?: string } | undefined {
  if (method !== 'POST') return undefined;
  if (/\/chat\/completions$/.test(path)) return { api: 'openai' };
  if (/\/messages$/.test(path)) return { api: 'anthropic' };
  const g = /\/models\/([^/:]+):generateContent$/.exec(path);
  if (g) return { api: 'gemini', model: decodeURIComponent(g[1]) };
  return undefined;
}

/** The key the request carries, read the way its API expects it. */
export function presentedKey(api: Api, headers: IncomingHttpHeaders): string | undefined {
  if (api === 'openai') {
    const auth = headers.authorization;
    return typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7) : undefined;
  }
  const name = api === 'anthropic' ? 'x-api-key' : 'x-goog-api-key';
  const v = headers[name];
  return typeof v === 'string' ? v : undefined;
}

/** Reads a request body into ParsedRequest, or returns the reason it is a 400. */
export function parseRequest(api: Api, body: Rec, urlModel?: string): ParsedRequest | string {
  if (api === 'gemini') {
    if (!Array.isArray(body.contents)) return 'contents is required';
    const cfg = isRec(body.generationConfig) ? body.generationConfig : {};
    const messages = body.contents.filter(isRec).map((c) => ({
      role: c.role === 'model' ? 'assistant' : 'user',
      content: Array.isArray(c.parts) ? c.parts.map((p) => (isRec(p) && typeof p.text === 'string' ? p.text : '')).join('') : '',
    }));
    const sys = isRec(body.systemInstruction) && Array.isArray(body.systemInstruction.parts) ? contentText(body.systemInstruction.parts) : '';
    return {
      api, model: urlModel ?? '', system: sys, messages,
      user: [...messages].reverse().find((m) => m.role === 'user')?.content ?? '',
      n: typeof cfg.candidateCount === 'number' ? cfg.candidateCount : 1,
      temperature: cfg.temperature as number | undefined, topP: cfg.topP as number | undefined,
      maxTokens: cfg.maxOutputTokens as number | undefined, json: cfg.responseMimeType === 'application/json', body,
    };
  }
  if (typeof body.model !== 'string' || !Array.isArray(body.messages)) return 'model and messages are required';
  const messages = body.messages.filter(isRec).map((m) => ({ role: String(m.role), content: contentText(m.content) }));
  if (api === 'anthropic') {
    if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
    // Newer Claude models refuse both; the client must never send them together.
    if (body.temperature !== undefined && body.top_p !== undefined) return '`temperature` and `top_p` cannot both be specified for this model.';
    if (body.n !== undefined) return 'n: Extra inputs are not permitted';
  }
  const system = api === 'anthropic' ? contentText(body.system) : messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
  return {
    api, model: body.model, system, messages,
    user: [...messages].reverse().find((m) => m.role === 'user')?.content ?? '',
    n: typeof body.n === 'number' ? body.n : 1,
    temperature: body.temperature as number | undefined, topP: body.top_p as number | undefined,
    maxTokens: (body.max_completion_tokens ?? body.max_tokens) as number | undefined,
    json: isRec(body.response_format) && body.response_format.type === 'json_object', body,
  };
}

export function successBody(req: ParsedRequest, replies: MockReply[]): Rec {
  const inTok = replies[0]?.inputTokens ?? 0;
  const outTok = replies.reduce((s, r) => s + r.outputTokens, 0);
  if (req.api === 'openai') {
    return {
      id: 'chatcmpl-mock', object: 'chat.completion', model: req.model,
      choices: replies.map((r, i) => ({
        index: i, message: { role: 'assistant', content: r.text }, finish_reason: 'stop',
        ...(r.logprobs && req.body.logprobs === true ? { logprobs: { content: r.logprobs } } : {}),
      })),
      usage: { prompt_tokens: inTok, completion_tokens: outTok, total_tokens: inTok + outTok },
    };
  }
  if (req.api === 'anthropic') {
    const r = replies[0];
    return {
      id: 'msg_mock', type: 'message', role: 'assistant', model: req.model,
      content: [{ type: 'text', text: r.text }], stop_reason: 'end_turn',
      usage: { input_tokens: inTok, output_tokens: outTok },
    };
  }
  return {
    candidates: replies.map((r, i) => ({ index: i, content: { role: 'model', parts: [{ text: r.text }] }, finishReason: 'STOP' })),
    usageMetadata: { promptTokenCount: inTok, candidatesTokenCount: outTok, totalTokenCount: inTok + outTok },
    modelVersion: req.model,
  };
}

const STATUS: Record<ErrorKind, number> = {
  auth: 401, 'rate-limit': 429, quota: 429, 'server-500': 500, 'server-503': 503, 'overloaded-529': 529, 'bad-request': 400, 'not-found': 404,
};

/** Each API's own error body for a kind of failure (what the client's classifier must read). */
export function errorReply(api: Api, kind: ErrorKind, message?: string): { status: number; body: Rec } {
  let status = STATUS[kind];
  if (api === 'gemini' && kind === 'overloaded-529') status = 503;
  if (api === 'openai') {
    const [type, code] = {
      auth: ['invalid_request_error', 'invalid_api_key'], 'rate-limit': ['requests', 'rate_limit_exceeded'],
      quota: ['insufficient_quota', 'insufficient_quota'], 'server-500': ['server_error', null], 'server-503': ['server_error', null],
      'overloaded-529': ['server_error', null], 'bad-request': ['invalid_request_error', null], 'not-found': ['invalid_request_error', 'model_not_found'],
    }[kind];
    const msg = message ?? (kind === 'auth' ? 'Incorrect API key provided.' : kind === 'quota' ? 'You exceeded your current quota, please check your plan and billing details.' : `mock ${kind}`);
    return { status, body: { error: { message: msg, type, param: null, code } } };
  }
  if (api === 'anthropic') {
    const type = {
      auth: 'authentication_error', 'rate-limit': 'rate_limit_error', quota: 'rate_limit_error', 'server-500': 'api_error',
      'server-503': 'api_error', 'overloaded-529': 'overloaded_error', 'bad-request': 'invalid_request_error', 'not-found': 'not_found_error',
    }[kind];
    const error: Rec = { type, message: message ?? (kind === 'auth' ? 'invalid x-api-key' : kind === 'quota' ? 'You have reached your specified workspace API usage limits.' : `mock ${kind}`) };
    if (kind === 'quota') error.details = { error_code: 'enforced_spend_limit_reached' };
    return { status, body: { type: 'error', error, request_id: 'req_mock' } };
  }
  const gstatus = {
    auth: 'INVALID_ARGUMENT', 'rate-limit': 'RESOURCE_EXHAUSTED', quota: 'RESOURCE_EXHAUSTED', 'server-500': 'INTERNAL',
    'server-503': 'UNAVAILABLE', 'overloaded-529': 'UNAVAILABLE', 'bad-request': 'INVALID_ARGUMENT', 'not-found': 'NOT_FOUND',
  }[kind];
  if (kind === 'auth') status = 400; // Gemini reports a bad key as 400 API_KEY_INVALID
  const details: Rec[] = [];
  if (kind === 'auth') details.push({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' });
  if (kind === 'quota' || kind === 'rate-limit') {
    const quotaId = kind === 'quota' ? 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' : 'GenerateRequestsPerMinutePerProjectPerModel';
    details.push({ '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId }] });
  }
  const msg = message ?? (kind === 'auth' ? 'API key not valid. Please pass a valid API key.' : `mock ${kind}`);
  return { status, body: { error: { code: status, message: msg, status: gstatus, details } } };
}
