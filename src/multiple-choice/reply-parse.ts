/**
 * Reading a multiple-choice reply: tolerant first (code fences, text around the JSON, "(B)" for
 * "B", "85%" for 85), strict after (the letter must be one of the question's options, the
 * probability a number in [0, 100]). A reply that fails is not dropped: the caller turns it into
 * ConfidenceBench's uniform guess (see uniform-guess.ts), keeping the reason.
 */

export type McParseMethod = 'json' | 'loose';

export type McFailure =
  | 'empty'
  | 'refusal'
  | 'no-answer'
  | 'letter-out-of-range'
  | 'no-probability'
  | 'probability-out-of-range';

export type McParse =
  | { ok: true; index: number; letter: string; probability: number; method: McParseMethod }
  | { ok: false; reason: McFailure; detail: string };

const FENCE = /```(?:json|JSON)?\s*([\s\S]*?)```/;
// Phrases that announce a refusal when no usable answer came with them.
const REFUSAL = /\b(?:I\s+(?:can(?:not|'t|’t)|am\s+unable|'m\s+unable|’m\s+unable|won(?:'t|’t)|will\s+not|refuse|do\s+not\s+know|don(?:'t|’t)\s+know)|cannot\s+(?:be\s+)?(?:determine|answer|know)|unable\s+to\s+(?:determine|answer)|not\s+possible\s+to\s+(?:determine|know))\b/i;
const NON_ANSWER = /^(?:|none|null|n\/a|unknown|unsure|refuse[ds]?|no answer|cannot answer|can't answer|i don't know)$/i;

/** The first balanced {...} in the text, string-aware, or null. */
export function firstJsonObject(text: string): string | null {
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        const candidate = text.slice(start, i + 1);
        try {
          JSON.parse(candidate);
          return candidate;
        } catch {
          break; // not JSON from this brace: try the next one
        }
      }
    }
  }
  return null;
}

/** "B", "(B)", "B)", "b.", "Option B", "B) Paris" → "B"; anything else → null. */
export function answerLetter(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^\s*(?:option\s+)?[([]?\s*([A-Za-z])\s*[)\].:]?(?:\s+.*)?$/i.exec(value);
  return m ? m[1].toUpperCase() : null;
}

/**
 * 85, "85", "85%", " 85.5 % " → the number in percent; anything else → null. A value at or below
 * 1 is read as a percent like any other (0.85 means 0.85%), because the prompt asks for 0–100;
 * guessing which scale was meant would make the score depend on the guess.
 */
export function statedPercent(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const m = /^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*%?\s*$/.exec(value);
  return m ? Number(m[1]) : null;
}

function fieldsFromJson(json: string): { answer: unknown; probability: unknown; hasAnswer: boolean } | null {
  const obj: unknown = JSON.parse(json);
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return null;
  const rec = obj as Record<string, unknown>;
  // Keys are matched case-insensitively; "confidence" is accepted for "probability".
  const find = (...names: string[]) => {
    const key = Object.keys(rec).find((k) => names.includes(k.trim().toLowerCase()));
    return key === undefined ? undefined : rec[key];
  };
  const answer = find('answer', 'choice', 'option');
  return { answer, probability: find('probability', 'confidence', 'prob'), hasAnswer: answer !== undefined };
}

function fieldsLoose(text: string): { answer: unknown; probability: unknown; hasAnswer: boolean } {
  const a = /["']?answer["']?\s*[:=]\s*["']?\s*(\(?[A-Za-z]\)?)(?![A-Za-z])/i.exec(text);
  const p = /["']?(?:probability|confidence)["']?\s*[:=]\s*["']?\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*%?)/i.exec(text);
  return { answer: a ? a[1] : undefined, probability: p ? p[1] : undefined, hasAnswer: a !== null };
}

/** Parse one reply against a question with `k` options (letters A…). */
export function parseMcReply(text: string, k: number): McParse {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'empty', detail: 'the reply is empty' };
  const fenced = FENCE.exec(trimmed);
  const json = firstJsonObject(fenced ? fenced[1] : trimmed) ?? (fenced ? firstJsonObject(trimmed) : null);
  const method: McParseMethod = json ? 'json' : 'loose';
  const fields = (json && fieldsFromJson(json)) || fieldsLoose(trimmed);

  if (!fields.hasAnswer || fields.answer === null || (typeof fields.answer === 'string' && NON_ANSWER.test(fields.answer.trim()))) {
    if (REFUSAL.test(trimmed) || fields.hasAnswer) {
      return { ok: false, reason: 'refusal', detail: 'the model declined to choose an option' };
    }
    return { ok: false, reason: 'no-answer', detail: 'no "answer" field with an option letter was found' };
  }
  const letter = answerLetter(fields.answer);
  if (letter === null) {
    return { ok: false, reason: 'no-answer', detail: `the answer ${JSON.stringify(fields.answer)} is not an option letter` };
  }
  const index = letter.charCodeAt(0) - 65;
  if (index < 0 || index >= k) {
    return { ok: false, reason: 'letter-out-of-range', detail: `the answer ${letter} is not among the ${k} options` };
  }
  const percent = statedPercent(fields.probability);
  if (percent === null) {
    return { ok: false, reason: 'no-probability', detail: 'no "probability" number was found' };
  }
  if (percent < 0 || percent > 100) {
    return { ok: false, reason: 'probability-out-of-range', detail: `the probability ${percent} is outside 0–100` };
  }
  return { ok: true, index, letter, probability: percent / 100, method };
}
