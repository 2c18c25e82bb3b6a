/**
 * Entry of the offline report: reads the report embedded in the page, validates it like any
 * import, and mounts the same ReportView the app uses. Runs from file:// with no network.
 */
import { mount } from 'svelte';
import ViewerApp from './ViewerApp.svelte';
import { parseReport } from '../../formats/report-import';

const element = document.getElementById('semece-report');
const result = element
  ? parseReport(element.textContent ?? '')
  : ({ ok: false, error: { kind: 'report-import', message: 'This page holds no report.' } } as const);

if (result.ok) document.title = `${result.value.title} · Sem-ECE`;
mount(ViewerApp, { target: document.getElementById('app')!, props: { result } });
