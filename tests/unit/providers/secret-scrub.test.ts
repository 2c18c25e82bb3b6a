import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { KEY_MASK, MIN_FRAGMENT, keyForms, scrubSecrets, secretScrubber } from '../../../src/providers/secret-scrub';

// A key with the characters that change under URL encoding and differ between the base64 alphabets.
const KEY = 'sk-ant-api03-Q7+x/Zp9=Lm2Vt8Rw4Ny6Ku0Hs3Jd5';
const PLAIN = 'gsk-live-9f8e7d6c5b4a3928171605f4e3d2c1b0';
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

/** True when some MIN_FRAGMENT characters of the form are still in the text. */
function leaks(text: string, form: string): boolean {
  for (let i = 0; i + MIN_FRAGMENT <= form.length; i++) if (text.includes(form.slice(i, i + MIN_FRAGMENT))) return true;
  return false;
}

describe('the scrubber removes a key in every form', () => {
  test('raw, and any run of 8 or more of its characters', () => {
    expect(scrubSecrets(`key=${KEY}`, KEY)).toBe(`key=${KEY_MASK}`);
    // Cut in the middle, as a truncated message or a provider's "sk-…xyz" echo leaves it.
    const cut = `Incorrect API key provided: ${KEY.slice(5, 19)}… and ${KEY.slice(-9)}`;
    const out = scrubSecrets(cut, KEY);
    expect(leaks(out, KEY)).toBe(false);
    expect(out).toBe(`Incorrect API key provided: ${KEY_MASK}… and ${KEY_MASK}`);
    // Seven characters are not a fragment: ordinary words that happen to share them stay.
    expect(scrubSecrets('ive-9f8 is fine', PLAIN)).toBe('ive-9f8 is fine');
  });

  test('URL-encoded, upper- and lower-case hex, and JSON-escaped', () => {
    const encoded = encodeURIComponent(KEY);
    expect(encoded).not.toBe(KEY);
    for (const form of [encoded, encoded.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()), KEY.replace(/\//g, '\\/')]) {
      const out = scrubSecrets(`GET /v1?key=${form}&x=1`, KEY);
      expect(leaks(out, form)).toBe(false);
      expect(out).toContain(KEY_MASK);
    }
  });

  test('base64, standard and URL-safe, of the key, of Bearer <key>, of :<key> and of <user>:<key>', () => {
    const carriers = [KEY, `Bearer ${KEY}`, `:${KEY}`, `alice:${KEY}`, `bob2:${KEY}`, `carol:${PLAIN}`];
    for (const carrier of carriers) {
      const key = carrier.endsWith(PLAIN) ? PLAIN : KEY;
      for (const encoded of [b64(carrier), b64url(carrier), b64(carrier).replace(/=+$/, ''), encodeURIComponent(b64(carrier))]) {
        const out = scrubSecrets(`Authorization: Basic ${encoded} was refused`, key);
        // What stays is at most the prefix's own characters and the group the prefix and key share.
        const keyPart = encoded.slice(Math.ceil((carrier.length - key.length) / 3) * 4 + 4, -4);
        expect(leaks(out, keyPart), `${carrier} as ${encoded} → ${out}`).toBe(false);
        expect(out).toContain(KEY_MASK);
      }
    }
  });

  test('a fragment of an encoded form is removed too', () => {
    const encoded = b64(`Bearer ${KEY}`);
    const out = scrubSecrets(`header was ${encoded.slice(12, 30)}…`, KEY);
    expect(out).toBe(`header was ${KEY_MASK}…`);
  });

  test('credentials in a URL, and known key shapes without the key', () => {
    expect(scrubSecrets('fetch failed for https://alice:hunter2secret@api.example.com/v1/chat')).toBe('fetch failed for https://[credentials]@api.example.com/v1/chat');
    expect(scrubSecrets('token AIzaSyD-abcdefghijklmnop leaked')).toBe(`token ${KEY_MASK} leaked`);
    expect(scrubSecrets('see http://example.com/a@b')).toBe('see http://example.com/a@b');
    // Already masked by the base URL check: left as it reads.
    expect(scrubSecrets('(https://***@host/v1)')).toBe('(https://***@host/v1)');
  });

  test('one scrubber for several keys; short keys only where whole; nothing else changes', () => {
    const scrub = secretScrubber([KEY, undefined, '', 'abc12', PLAIN]);
    expect(scrub(`${KEY.slice(3, 15)} / ${PLAIN.slice(-10)} / abc12 / abc1`)).toBe(`${KEY_MASK} / ${KEY_MASK} / ${KEY_MASK} / abc1`);
    expect(scrub('The key was refused (401): check the key for openai.')).toBe('The key was refused (401): check the key for openai.');
  });

  test('keyForms lists the forms once each', () => {
    const forms = keyForms(KEY);
    expect(new Set(forms).size).toBe(forms.length);
    expect(forms).toContain(encodeURIComponent(KEY));
    expect(forms).toContain(b64(KEY).replace(/=+$/, ''));
  });

  test('property: no 8 characters that depend only on the key survive, raw or base64 after any prefix', () => {
    const keyChar = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/='.split(''));
    fc.assert(
      fc.property(fc.string({ unit: keyChar, minLength: 12, maxLength: 80 }), fc.string({ maxLength: 12 }), fc.boolean(), (key, prefix, urlSafe) => {
        const carrier = prefix + key;
        const encoded = urlSafe ? b64url(carrier) : b64(carrier);
        const prefixBytes = Buffer.byteLength(prefix, 'utf8');
        // Characters from the first group holding only key bytes to the last full group of the key.
        const first = Math.ceil(prefixBytes / 3) * 4;
        const last = Math.floor(Buffer.byteLength(carrier, 'utf8') / 3) * 4;
        const core = encoded.slice(first, last);
        const text = `before ${encoded} middle ${key.slice(2, 14)} after`;
        const out = scrubSecrets(text, key);
        return !leaks(out, core) && !leaks(out, key);
      }),
      { numRuns: 300, seed: 20261202 },
    );
  });
});
