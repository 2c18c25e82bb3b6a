/**
 * The hash router's table: each route names a pattern and a lazy `import()` of its page, so a
 * heavy page (the run wizard, the classroom, Transformers.js) is fetched only when visited and
 * the first page stays small. Other pages add their entry here.
 *
 * Patterns: literal segments, `:name` for one segment, and a final `*name` for the rest of the
 * hash (e.g. a compressed share link). Every page component receives the matched params as its
 * `params` prop.
 */
import type { Component } from 'svelte';
import { prefetchDemoReport } from './report/demo-report-fetch';

export type RouteParams = Record<string, string>;

// Pages differ in their props; the shell passes only `params`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PageModule = { default: Component<any> };

export interface RouteDef {
  pattern: string;
  /** Shown in the document title. */
  title: string;
  load: () => Promise<PageModule>;
}

export interface RouteMatch {
  route: RouteDef;
  params: RouteParams;
}

export const routes: RouteDef[] = [
  {
    pattern: '/',
    title: 'Demo report',
    // The demo report (scored when the app was built) downloads while the page's code does.
    load: () => (void prefetchDemoReport(), import('./Home.svelte')),
  },
  { pattern: '/report/:id', title: 'Report', load: () => import('./report/SavedReportPage.svelte') },
  { pattern: '/audit/:id', title: 'Audit', load: () => import('./audit/AuditPage.svelte') },
  { pattern: '/open', title: 'Open a report', load: () => import('./report/OpenReportPage.svelte') },
  { pattern: '/new', title: 'New run', load: () => import('./run/NewRunPage.svelte') },
  // The wizard's steps are history entries (Back and Forward move between them); the same page.
  { pattern: '/new/:step', title: 'New run', load: () => import('./run/NewRunPage.svelte') },
  { pattern: '/run/:id', title: 'Run', load: () => import('./run/RunPage.svelte') },
  { pattern: '/runs', title: 'Runs', load: () => import('./runs/RunsPage.svelte') },
  { pattern: '/compare', title: 'Compare reports', load: () => import('./compare/ComparePage.svelte') },
  { pattern: '/leaderboard', title: 'Leaderboard', load: () => import('./compare/LeaderboardPage.svelte') },
  { pattern: '/shared-compare/*payload', title: 'Shared comparison', load: () => import('./compare/SharedComparePage.svelte') },
  { pattern: '/classroom', title: 'Classroom', load: () => import('./classroom/ClassroomPage.svelte') },
  { pattern: '/glossary', title: 'Glossary', load: () => import('./GlossaryPage.svelte') },
  { pattern: '/glossary/:term', title: 'Glossary', load: () => import('./GlossaryPage.svelte') },
  { pattern: '/shared/*payload', title: 'Shared report', load: () => import('./share/SharedReportPage.svelte') },
];

/** The path part of a location hash: `#/report/abc?x` → `/report/abc?x`; empty → `/`. */
export function hashPath(hash: string): string {
  const path = hash.replace(/^#/, '');
  return path === '' ? '/' : path.startsWith('/') ? path : `/${path}`;
}

function matchPattern(pattern: string, path: string): RouteParams | null {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  const params: RouteParams = {};
  for (let i = 0; i < want.length; i++) {
    const seg = want[i];
    if (seg.startsWith('*')) {
      params[seg.slice(1) || 'rest'] = got.slice(i).join('/');
      return params;
    }
    if (i >= got.length) return null;
    if (seg.startsWith(':')) {
      try {
        params[seg.slice(1)] = decodeURIComponent(got[i]);
      } catch {
        return null; // a malformed escape is no match rather than a crash
      }
    } else if (seg !== got[i]) {
      return null;
    }
  }
  return got.length === want.length ? params : null;
}

/** The first route whose pattern matches the hash, with its params; null when none does. */
export function matchRoute(hash: string, table: readonly RouteDef[] = routes): RouteMatch | null {
  const path = hashPath(hash).split('?')[0];
  for (const route of table) {
    const params = matchPattern(route.pattern, path);
    if (params) return { route, params };
  }
  return null;
}

/** The header's ways in; a link whose route is not in the table yet is shown as unavailable. */
export const NAV_LINKS: { href: string; label: string }[] = [
  { href: '#/', label: 'Home' },
  { href: '#/new', label: 'New run' },
  { href: '#/runs', label: 'Runs' },
  { href: '#/open', label: 'Open report' },
  { href: '#/compare', label: 'Compare' },
  { href: '#/classroom', label: 'Classroom' },
];
