/**
 * What the tiny causal language model (scripts/make-tiny-causal-model.ts, public/models/tiny-causal-lm)
 * knows, as one table that the script writes into the model and that tests and benchmarks read to
 * know what the model must do. Kept apart from the script so importing it writes nothing.
 *
 * The model is a bigram table keyed on the question: the next token's logits are
 * table[topic, last token], where `topic` is the highest topic id of any token seen so far (the
 * prompt's keywords: "australia", "hexagon" …; 0 when none). Every reply is
 *   Answer: <answer>\nConfidence: <value>%
 * with the answer drawn from the topic's answer distribution and the confidence from its
 * confidence distribution, independently; every other step is certain. So the distribution of
 * answers for a question, and so the expected Sem1 under exact-match clustering, is known exactly.
 *
 * Logits are whole multiples of LOGIT_STEP in [-128, 127] steps, so the uint8 variant
 * (model_quantized.onnx, zero point 128, scale LOGIT_STEP) holds exactly the same logits as the
 * float one: both variants sample the same distribution.
 */

export const TINY_CAUSAL_MODEL_ID = 'tiny-causal-lm';

/** One logit step; every logit in the table is a whole number of steps. */
export const LOGIT_STEP = 0.25;
/** The logit of a token that may not follow (e^-32 relative: never drawn in any test's lifetime). */
export const FORBIDDEN_STEPS = -128;

/** A token drawn with a weight: its text as decoded, and its logit in steps (0 = the favourite). */
export interface WeightedToken {
  /** The decoded token (with its leading space). */
  token: string;
  steps: number;
}

export interface TinyTopic {
  /** The prompt word that selects this topic (lower case; the tokenizer lower-cases input). */
  keyword: string;
  /** A question that contains the keyword (the built-in demo question with this id, where one is). */
  question: string;
  questionId: string;
  /** The reference answer and aliases, for alias grading in tests. */
  gold: string;
  aliases: string[];
  answers: WeightedToken[];
  confidences: WeightedToken[];
}

/**
 * Topic 0 is the model's answer to anything it does not know; topics 1… each answer one of the
 * built-in demo questions (src/demo/questions.ts), with a distribution of its own (not the demo's).
 * Every answer of a topic is a word of its own synonym group in the tiny NLI model
 * (scripts/make-tiny-nli-model.ts), so entailment clustering of its answers is exact match.
 */
export const TINY_TOPICS: readonly TinyTopic[] = [
  {
    keyword: '',
    question: 'Anything the model has no keyword for.',
    questionId: 'unknown',
    gold: '',
    aliases: [],
    answers: [{ token: ' 42', steps: 0 }, { token: ' Paris', steps: 0 }, { token: ' unknown', steps: 0 }],
    confidences: [{ token: ' 30', steps: 0 }, { token: ' 50', steps: 0 }],
  },
  {
    keyword: 'australia',
    question: 'Which city is the capital of Australia?',
    questionId: 'demo-01',
    gold: 'Canberra',
    aliases: [],
    answers: [{ token: ' Canberra', steps: 0 }, { token: ' Sydney', steps: -4 }],
    confidences: [{ token: ' 90', steps: 0 }, { token: ' 70', steps: -3 }],
  },
  {
    keyword: 'hexagon',
    question: 'How many sides does a hexagon have?',
    questionId: 'demo-04',
    gold: '6',
    aliases: ['six'],
    answers: [{ token: ' 6', steps: 0 }, { token: ' 8', steps: -12 }],
    confidences: [{ token: ' 95', steps: 0 }],
  },
  {
    keyword: 'canada',
    question: 'Which city is the capital of Canada?',
    questionId: 'demo-21',
    gold: 'Ottawa',
    aliases: [],
    answers: [{ token: ' Ottawa', steps: 0 }, { token: ' Toronto', steps: -1 }],
    confidences: [{ token: ' 80', steps: 0 }, { token: ' 60', steps: 0 }],
  },
  {
    keyword: 'closest',
    question: 'Which planet orbits closest to the Sun?',
    questionId: 'demo-05',
    gold: 'Mercury',
    aliases: [],
    answers: [{ token: ' Mercury', steps: 0 }, { token: ' Venus', steps: -3 }],
    confidences: [{ token: ' 70', steps: 0 }, { token: ' 90', steps: -2 }],
  },
];

/** The fixed parts of every reply. */
export const ANSWER_LABEL = 'Answer:';
export const NEWLINE = '\n';
export const CONFIDENCE_LABEL = 'Confidence:';
export const PERCENT = '%';

/** Chat-template tokens (ChatML): the template ends the prompt with `<|im_start|>assistant\n`. */
export const SPECIAL_TOKENS = { pad: '<pad>', unk: '<unk>', start: '<|im_start|>', end: '<|im_end|>' } as const;
/** Words the chat template puts in every prompt: the last one, 'assistant', starts every reply. */
export const ROLE_WORDS = ['system', 'user', 'assistant'] as const;

export const CHAT_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** The probabilities that the weighted tokens' logits give (softmax at temperature 1). */
export function probabilities(tokens: readonly WeightedToken[], temperature = 1): number[] {
  const logits = tokens.map((t) => (t.steps * LOGIT_STEP) / temperature);
  const top = Math.max(...logits);
  const e = logits.map((l) => Math.exp(l - top));
  const sum = e.reduce((s, x) => s + x, 0);
  return e.map((x) => x / sum);
}

/** The answer a reply carries, as the app's parser reads it (the token without its space). */
export const answerText = (t: WeightedToken): string => t.token.trim();

/** The topic a question falls under, as the model decides it: the highest topic whose keyword is a word of the text. */
export function topicOf(text: string): number {
  const words = new Set(text.toLowerCase().match(/\w+/g) ?? []);
  let topic = 0;
  TINY_TOPICS.forEach((t, i) => {
    if (i > 0 && words.has(t.keyword)) topic = i;
  });
  return topic;
}

function logFactorial(n: number): number {
  let s = 0;
  for (let k = 2; k <= n; k++) s += Math.log(k);
  return s;
}

/**
 * Mean and variance of max_k N_k / n for N ~ Multinomial(n, p): the expected Sem1 of a question
 * whose n samples fall into classes with probabilities p (exact match on distinct answers), and
 * its spread, for a Monte Carlo tolerance. Exact: a sum over every way to split n samples.
 */
export function modalFrequencyMoments(p: readonly number[], n: number): { mean: number; variance: number } {
  let m1 = 0;
  let m2 = 0;
  const counts: number[] = new Array(p.length).fill(0);
  const walk = (k: number, left: number) => {
    if (k === p.length - 1) {
      counts[k] = left;
      let logP = logFactorial(n);
      for (let j = 0; j < p.length; j++) {
        if (counts[j] === 0) continue;
        if (p[j] === 0) return;
        logP += counts[j] * Math.log(p[j]) - logFactorial(counts[j]);
      }
      const f = Math.max(...counts) / n;
      m1 += Math.exp(logP) * f;
      m2 += Math.exp(logP) * f * f;
      return;
    }
    for (let c = 0; c <= left; c++) {
      counts[k] = c;
      walk(k + 1, left - c);
    }
  };
  walk(0, n);
  return { mean: m1, variance: Math.max(0, m2 - m1 * m1) };
}
