/**
 * The one scrubber: removes API keys from any text the app shows, logs or stores (provider
 * errors, a run's stored errors, the CLI's printed errors). A key can reach a text in more
 * forms than itself, and every one of them is removed:
 *  - raw, and any run of MIN_FRAGMENT or more consecutive characters of it (a key cut in the
 *    middle by a provider's "sk-proj-Abc…xyz", or by our own truncation of a long message);
 *  - URL-encoded (upper- or lower-case hex) and JSON-escaped (`\/`);
 *  - base64, standard and URL-safe, padded or not, of the key alone and of the key after any
 *    prefix: `Bearer <key>`, `:<key>` and `<user>:<key>` (HTTP Basic). Base64 encodes three
 *    bytes as four characters, so the key's characters depend on where the key starts modulo 3;
 *    the three encodings of the key from its 0th, 1st and 2nd byte cover every prefix;
 *  - each of those cut to a fragment, and URL-encoded;
 *  - credentials written into a URL (`https://user:pass@host`), whoever's they are;
 *  - the key shapes of the providers we know (`sk-…`, `AIza…`), even when the key is not known.
 */

/** Shortest run of a key's (or its encoding's) characters that is removed wherever it appears. */
export const MIN_FRAGMENT = 8;

/** What a removed key reads as. */
export const KEY_MASK = '[key]';

// Key shapes of the providers we know, masked even when only a fragment is echoed back.
const KEY_SHAPES = /\b(?:sk-[A-Za-z0-9_*.-]{6,}|xai-[A-Za-z0-9_*-]{6,}|gsk_[A-Za-z0-9_*]{6,}|AIza[A-Za-z0-9_*-]{10,})/g;

// `scheme://user:password@` or `scheme://user@` in any text: the part before @ is a credential
// (one already masked as *** by base-url.ts's redactedUrl is left as it is).
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)(?!\*\*\*@)[^\s/?#@]+@/gi;

export type Scrub = (text: string) => string;

function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/=+$/, '');
}

/** The form with its percent-escapes in lower-case hex (encodeURIComponent writes upper case). */
const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());

/** Every form in which `key` can appear in a text (see the module comment). */
export function keyForms(key: string): string[] {
  const forms = new Set<string>([key, key.replace(/\//g, '\\/')]);
  const encoded = encodeURIComponent(key);
  forms.add(encoded).add(lowerHex(encoded));
  for (let start = 0; start < 3 && start < key.length; start++) {
    const b64 = base64(key.slice(start));
    const urlSafe = b64.replace(/\+/g, '-').replace(/\//g, '_');
    const escaped = encodeURIComponent(b64);
    forms.add(b64).add(urlSafe).add(escaped).add(lowerHex(escaped)).add(b64.replace(/\//g, '\\/'));
  }
  return [...forms];
}

/**
 * A scrubber for these secrets, its tables built once so that scrubbing many texts (every
 * error of a run) costs one pass over each text. Empty or missing secrets are ignored.
 * `only: true` removes these secrets in their every form and nothing else (no URL credentials,
 * no key shapes): for a model's replies, which are the user's data and may rightly mention
 * an "sk-…" or a URL, and must come back unchanged unless they hold the key.
 */
export function secretScrubber(secrets: Iterable<string | null | undefined>, opts: { only?: boolean } = {}): Scrub {
  const whole = new Set<string>();
  const fragments = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    // A key shorter than a fragment is removed only where it appears whole.
    if (secret.length < MIN_FRAGMENT) {
      whole.add(secret);
      continue;
    }
    for (const form of keyForms(secret)) {
      if (form.length < MIN_FRAGMENT) continue;
      for (let i = 0; i + MIN_FRAGMENT <= form.length; i++) fragments.add(form.slice(i, i + MIN_FRAGMENT));
    }
  }
  const sortedWhole = [...whole].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of sortedWhole) out = out.split(secret).join(KEY_MASK);
    if (fragments.size > 0) out = maskFragments(out, fragments);
    if (opts.only) return out;
    return out.replace(URL_CREDENTIALS, `$1[credentials]@`).replace(KEY_SHAPES, KEY_MASK);
  };
}

/** Replaces every run of characters covered by a known fragment with one mask. */
function maskFragments(text: string, fragments: ReadonlySet<string>): string {
  if (text.length < MIN_FRAGMENT) return text;
  const covered = new Uint8Array(text.length);
  let any = false;
  for (let i = 0; i + MIN_FRAGMENT <= text.length; i++) {
    if (fragments.has(text.slice(i, i + MIN_FRAGMENT))) {
      covered.fill(1, i, i + MIN_FRAGMENT);
      any = true;
    }
  }
  if (!any) return text;
  let out = '';
  for (let i = 0; i < text.length; ) {
    if (!covered[i]) {
      out += text[i++];
      continue;
    }
    while (i < text.length && covered[i]) i++;
    out += KEY_MASK;
  }
  return out;
}

/** Scrubs one text of these secrets (for many texts, build a secretScrubber once). */
export function scrubSecrets(text: string, ...secrets: (string | null | undefined)[]): string {
  return secretScrubber(secrets)(text);
}

/** An error's texts (message, where) scrubbed; the other fields as they were. */
export function scrubbedError<T extends { message: string; where?: string }>(error: T, scrub: Scrub): T {
  return { ...error, message: scrub(error.message), ...(error.where !== undefined ? { where: scrub(error.where) } : {}) };
}
