/**
 * A reply's sequence log-probability, the sum of its tokens' log-probabilities, kept with its
 * sample where the provider returned token logprobs (the run asked for them: sampling.logprobs),
 * and a question's list of them for its row (rows' sequence_logprobs), which the likelihood-
 * weighted semantic entropy reads (core/weighted-semantic-entropy.ts).
 */
import type { TokenLogprob } from '../model/provider';
import type { Sample } from '../model/rows';

/** Σ of the tokens' log-probabilities; undefined without tokens or with one that is not a finite log-probability. */
export function sequenceLogprob(tokens: readonly TokenLogprob[] | undefined): number | undefined {
  if (!tokens || tokens.length === 0) return undefined;
  let s = 0;
  for (const t of tokens) {
    if (!Number.isFinite(t.logprob) || t.logprob > 0) return undefined;
    s += t.logprob;
  }
  return s;
}

/** The sample with its sequence log-probability added where the reply had token logprobs. */
export function withSequenceLogprob(sample: Sample, tokens: readonly TokenLogprob[] | undefined): Sample {
  const lp = sequenceLogprob(tokens);
  return lp === undefined ? sample : { ...sample, sequenceLogprob: lp };
}

/** The row's sequence_logprobs: one per sample, only when every sample has one. */
export function rowSequenceLogprobs(samples: readonly Pick<Sample, 'sequenceLogprob'>[]): number[] | undefined {
  if (samples.length === 0) return undefined;
  const out: number[] = new Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const lp = samples[i].sequenceLogprob;
    if (lp === undefined || !Number.isFinite(lp)) return undefined;
    out[i] = lp;
  }
  return out;
}
