/**
 * The mock's answer model: each configured question has a distribution over answer classes; sample
 * index j of a question draws its class from a generator seeded by (seed, question id, j), so the
 * same indices always give the same answers and Sem1/Sem2 on the mock's output are predictable.
 */

export interface MockQuestion {
  /** Text that identifies the question inside the prompt (usually the question itself). */
  match: string;
  /** Name used in stats; defaults to `match`. */
  id?: string;
  /** Answer class → weight (weights need not sum to 1). */
  answers: Record<string, number>;
  /** Stated confidence in percent, fixed or per answer class; default 80. */
  confidence?: number | Record<string, number>;
  /** Refuse every request for this question with a 400 and this message (a content policy, a prompt too long). */
  refuse?: string;
}

/** FNV-1a over a string: a small, stable hash to seed the per-sample generator. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: tiny seeded generator, uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The answer class of sample `index` of a question: a pure function of (seed, id, index). */
export function drawAnswer(q: MockQuestion, seed: number, index: number): string {
  const entries = Object.entries(q.answers).filter(([, w]) => w > 0);
  if (entries.length === 0) return 'no answer configured';
  const total = entries.reduce((s, [, w]) => s + w, 0);
  let u = mulberry32(fnv1a(`${seed}|${q.id ?? q.match}|${index}`))() * total;
  for (const [answer, w] of entries) {
    u -= w;
    if (u < 0) return answer;
  }
  return entries[entries.length - 1][0];
}

export function confidenceFor(q: MockQuestion, answer: string): number {
  if (typeof q.confidence === 'number') return q.confidence;
  if (q.confidence && answer in q.confidence) return q.confidence[answer];
  return 80;
}

/** The reply text in the shape the generation prompt asks for. */
export function replyText(q: MockQuestion, seed: number, index: number): string {
  const answer = drawAnswer(q, seed, index);
  return `Thinking about it briefly.\nAnswer: ${answer}\nConfidence: ${confidenceFor(q, answer)}%`;
}

/** Finds the configured question a prompt is about: the longest `match` it contains wins. */
export class QuestionIndex {
  private readonly sorted: MockQuestion[];
  constructor(questions: MockQuestion[]) {
    this.sorted = [...questions].sort((a, b) => b.match.length - a.match.length);
  }
  find(prompt: string): MockQuestion | undefined {
    return this.sorted.find((q) => prompt.includes(q.match));
  }
}
