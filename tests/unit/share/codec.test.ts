import { describe, expect, test } from 'vitest';
import { deflateSync, strToU8 } from 'fflate';
import {
  MAX_SHARE_URL_LENGTH,
  base64urlDecode,
  base64urlEncode,
  decodePayload,
  encodePayload,
  makeShareLink,
  SHARE_ROUTE,
  reduceReport,
} from '../../../src/share/codec';
import { matchRoute } from '../../../src/ui/routes';
import { sampleReport } from './report-fixture';
import { largeReport } from './large-report';
import type { ReportDocument } from '../../../src/model/report';

const BASE = 'http://127.0.0.1:5173/index.html#/report';

/** Numbers that do not compress away, so sizes behave like a real report's. */
function noisy(doc: ReportDocument): ReportDocument {
  let s = 12345;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (const m of doc.models) for (const q of m.questions) {
    q.sem1 = rand();
    q.sem2 = rand();
    q.verbalized = rand();
    q.entropy = rand() * 2;
    q.question = `Question ${rand().toString(36)}`;
    q.samples?.forEach((x) => (x.raw = `reply ${rand().toString(36)} ${rand().toString(36)}`));
  }
  return doc;
}

/** The link's payload, after the `#/shared/` route the app's router reads it from. */
function open(url: string) {
  const hash = '#' + url.split('#')[1];
  expect(hash.startsWith(SHARE_ROUTE)).toBe(true);
  return decodePayload(hash.slice(SHARE_ROUTE.length));
}

describe('base64url', () => {
  test('round trips every byte and length', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n * 7 }, (_, i) => (i * 37 + n) & 255);
      const text = base64urlEncode(bytes);
      expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(base64urlDecode(text)).toEqual(bytes);
    }
    expect(base64urlDecode('ab+/')).toBeNull();
    expect(base64urlDecode('abcde')).toBeNull();
  });
});

describe('share link round trip', () => {
  test('a small report travels whole (without raw replies) and opens with the same numbers', () => {
    const doc = sampleReport({ questions: 6 });
    const link = makeShareLink(doc, BASE);
    expect(link.ok).toBe(true);
    if (!link.ok) return;
    expect(link.value.detail).toBe('full');
    expect(link.value.url.startsWith('http://127.0.0.1:5173/index.html#/shared/')).toBe(true);
    expect(link.value.length).toBe(link.value.url.length);
    const opened = open(link.value.url);
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(opened.value.detail).toBe('full');
    expect(opened.value.report).toEqual(reduceReport(doc, 'full'));
    expect(opened.value.report.models[0].questions[0].samples![0].raw).toBeUndefined();
    expect(opened.value.report.models[1].metrics).toEqual(doc.models[1].metrics);
    expect(opened.value.report.models[0].metrics.bootstrap.d_ece_lo[0]).toBeNaN();
  });

  test('larger reports drop samples, then rows; the summary keeps every metric', () => {
    // With 100 noisy questions: whole ≈ 20.7 KB, rows ≈ 19.3 KB, summary ≈ 1.2 KB of payload.
    const doc = noisy(sampleReport({ questions: 100 }));
    expect(makeShareLink(doc, BASE).ok && makeShareLink(doc, BASE).ok).toBe(true);
    const link = makeShareLink(doc, BASE, 20_000);
    expect(link.ok && link.value.detail).toBe('rows');
    const opened = link.ok ? open(link.value.url) : null;
    expect(opened?.ok && opened.value.report.models[1].questions[99].sem2).toBe(doc.models[1].questions[99].sem2);
    expect(opened?.ok && opened.value.report.models[1].questions[99].samples).toBeUndefined();

    const big = noisy(sampleReport({ questions: 3000 }));
    const summary = makeShareLink(big, BASE);
    expect(summary.ok && summary.value.length).toBeLessThanOrEqual(MAX_SHARE_URL_LENGTH);
    expect(summary.ok && summary.value.detail).toBe('summary');
    const s = summary.ok ? open(summary.value.url) : null;
    expect(s?.ok && s.value.report.models[0].questions).toEqual([]);
    expect(s?.ok && s.value.report.models[0].metrics).toEqual(big.models[0].metrics);
    expect(s?.ok && s.value.report.title).toBe(big.title);
  });

  test('every link stays under the documented limit; too large gives sizes and offers files', () => {
    const doc = noisy(sampleReport({ questions: 300 }));
    const r = makeShareLink(doc, BASE, 1000);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('share-too-large');
    expect(r.error.message).toMatch(/too large for a link \(with samples: [\d.]+ KB; with per-question rows: [\d.]+ KB; the summary alone: [\d.]+ KB; a link may be at most 1\.0 KB\)/);
    expect(r.error.message).toMatch(/JSON or HTML file/);
    const ok = makeShareLink(doc, BASE);
    expect(ok.ok && ok.value.length).toBeLessThanOrEqual(MAX_SHARE_URL_LENGTH);
  });

  test('encoding does not change the report', () => {
    const doc = sampleReport();
    const before = JSON.stringify(doc);
    makeShareLink(doc, BASE);
    expect(JSON.stringify(doc)).toBe(before);
  });
});

describe('hostile or damaged links are refused with a message', () => {
  const payload = encodePayload(sampleReport(), 'full');
  const message = (p: string) => {
    const r = decodePayload(p);
    expect(r.ok).toBe(false);
    return r.ok ? '' : r.error.message;
  };

  test('cut short', () => {
    expect(message(payload.slice(0, Math.floor(payload.length / 2)))).toMatch(/cut/);
  });
  test('edited characters', () => {
    expect(message(payload.slice(0, 20) + '%3Cscript%3E')).toMatch(/damaged/);
    expect(message('')).toMatch(/empty/);
  });
  test('deflated text that is not JSON, or JSON that is not ours', () => {
    expect(message(base64urlEncode(deflateSync(strToU8('<script>alert(1)</script>'))))).toMatch(/not a report/);
    expect(message(base64urlEncode(deflateSync(strToU8('{"a":1}'))))).toMatch(/not made by this app/);
  });
  test('a valid envelope around an invalid report names the bad field', () => {
    const bad = JSON.parse(JSON.stringify(sampleReport()));
    bad.models[0].questions[1].sem2 = 7;
    const p = base64urlEncode(deflateSync(strToU8(JSON.stringify({ detail: 'rows', report: bad }))));
    expect(message(p)).toBe('The report in the link is not valid: models[0].questions[1].sem2: expected a number in [0,1], got 7');
  });
  /** A link made the way the app makes one, around a report a test has forged. */
  const forged = (edit: (j: any) => void) => {
    const j = JSON.parse(JSON.stringify(sampleReport()));
    edit(j);
    return base64urlEncode(deflateSync(strToU8(JSON.stringify({ detail: 'full', report: j }))));
  };
  test('a small link asking for huge work is refused before any of it is done', () => {
    // A few KB that once made a tab allocate 7.8 GB (bins) or spin a core for minutes (B).
    const bins = forged((j) => (j.settings.bins = 1e9));
    expect(bins.length).toBeLessThan(8 * 1024);
    expect(message(bins)).toBe('The report in the link is not valid: settings.bins: expected a whole number from 1 to 1,000, got 1000000000');
    expect(message(forged((j) => (j.settings.bootstrap.B = 1e8)))).toBe(
      'The report in the link is not valid: settings.bootstrap.B: expected a whole number from 0 to 100,000, got 100000000',
    );
  });
  test('forged headline numbers are refused, naming the field and the value', () => {
    expect(message(forged((j) => (j.models[0].metrics.accuracy = 7)))).toBe(
      'The report in the link is not valid: models[0].metrics.accuracy: expected a number in [0,1], got 7',
    );
    expect(message(forged((j) => (j.models[1].metrics.signals.sem1.ece = -5)))).toBe(
      'The report in the link is not valid: models[1].metrics.signals.sem1.ece: expected a number in [0,1], got -5',
    );
  });
  test('a deflate bomb stops at the ceiling', () => {
    const bomb = deflateSync(new Uint8Array(20 * 1024 * 1024).fill(32), { level: 9 });
    expect(message(base64urlEncode(bomb))).toMatch(/unpacks to more than 16 MB/);
  });
  test('other routes carry no payload', () => {
    // The app's router reads the payload after SHARE_ROUTE, where makeShareLink puts it.
    expect(matchRoute('#/report')?.params.payload).toBeUndefined();
    expect(matchRoute(`${SHARE_ROUTE}abc`)).toMatchObject({ route: { pattern: '/shared/*payload' }, params: { payload: 'abc' } });
  });
});

describe('decodePayload progress', () => {
  test('inflating by bytes up to the payload, then parsing the JSON, then validating every row', () => {
    // 12,000 rows: a payload of some 180 KB, several 64 KB steps.
    const payload = encodePayload(largeReport(6000), 'rows');
    const seen: { phase: string; done?: number; total?: number }[] = [];
    const result = decodePayload(payload, (p) => seen.push(p));
    expect(result.ok).toBe(true);
    const inflating = seen.filter((p) => p.phase === 'inflating');
    expect(inflating.length).toBeGreaterThan(2);
    const total = inflating[0].total!;
    expect(inflating.map((p) => p.done)).toEqual([...inflating.map((p) => p.done!)].sort((a, b) => a - b));
    expect(inflating.every((p) => p.total === total && p.done! <= total)).toBe(true);
    expect(inflating.at(-1)!.done).toBe(total);
    expect(seen.map((p) => p.phase).filter((ph, i, all) => ph !== all[i - 1])).toEqual(['inflating', 'parsing', 'validating']);
    expect(seen.at(-1)).toEqual({ phase: 'validating', total: 12000, unit: 'rows' });
  });
});
