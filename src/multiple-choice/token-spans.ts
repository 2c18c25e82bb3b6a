/**
 * Token log-probabilities come as a list of token strings; their concatenation is the text the
 * logprobs describe. Character spans of the tokens in that text let a position in the reply
 * (where the answer letter or the answer span is) be mapped to the token(s) that produced it.
 */
import type { TokenLogprob } from '../model/provider';

export interface TokenSpan {
  start: number;
  end: number;
}

/** [start, end) of every token in the concatenated token text. */
export function tokenSpans(tokens: readonly TokenLogprob[]): TokenSpan[] {
  const spans: TokenSpan[] = [];
  let at = 0;
  for (const t of tokens) {
    spans.push({ start: at, end: at + t.token.length });
    at += t.token.length;
  }
  return spans;
}

export function tokenText(tokens: readonly TokenLogprob[]): string {
  return tokens.map((t) => t.token).join('');
}

/** Index of the token whose span contains character `pos`; -1 when none does. */
export function tokenAt(spans: readonly TokenSpan[], pos: number): number {
  return spans.findIndex((s) => s.start <= pos && pos < s.end);
}
