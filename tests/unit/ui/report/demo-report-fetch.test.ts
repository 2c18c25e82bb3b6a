import { expect, test } from 'vitest';
import { fetchDemoReport } from '../../../../src/ui/report/demo-report-fetch';
import { DEMO_REPORT_FILE } from '../../../../src/demo/demo-report-file';
import { demoReportText } from '../../../../src/demo/vite-plugin-demo-report';
import { buildDemoReport } from '../../../../src/demo/demo-report';
import { demoDocument } from '../../../e2e/report-fixture';
import { firstDifference } from '../../demo/same-bits';

const text = demoReportText('public', buildDemoReport);

test('fetchDemoReport fetches demo/report.json beside the app and reads back the document the build scored', async () => {
  const asked: string[] = [];
  const serve = (async (url: URL | RequestInfo) => {
    asked.push(String(url));
    return new Response(text);
  }) as typeof fetch;
  const got = await fetchDemoReport('http://127.0.0.1/app/', serve);
  expect(asked).toEqual([`http://127.0.0.1/app/${DEMO_REPORT_FILE}`]);
  if (!got.ok) throw new Error(got.error.message);
  expect(firstDifference(got.value, demoDocument())).toBeNull();
});

test('a missing, unreachable or broken file is a typed error naming it', async () => {
  const missing = await fetchDemoReport('http://127.0.0.1/', (async () => new Response('gone', { status: 404 })) as typeof fetch);
  expect(missing).toEqual({ ok: false, error: { kind: 'demo', message: `HTTP 404 for the demo report ${DEMO_REPORT_FILE}`, where: `http://127.0.0.1/${DEMO_REPORT_FILE}` } });
  const offline = await fetchDemoReport('http://127.0.0.1/', (async () => { throw new TypeError('Failed to fetch'); }) as typeof fetch);
  expect(!offline.ok && offline.error.message).toBe(`The demo report ${DEMO_REPORT_FILE} could not be fetched: the network or the app's server did not answer. Reload the page to try again.`);
  const html = await fetchDemoReport('http://127.0.0.1/', (async () => new Response('<!doctype html>')) as typeof fetch);
  expect(!html.ok && html.error.message).toMatch(/^The demo report is not valid JSON/);
});
