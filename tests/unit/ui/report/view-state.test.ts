import { expect, test } from 'vitest';
import { DEFAULT_VIEW_STATE, fragmentQuery, readViewState, viewStateQuery, withViewState, type ReportViewState } from '../../../../src/ui/report/view-state';
import { matchRoute } from '../../../../src/ui/routes';

const state: ReportViewState = {
  view: 'questions',
  model: 'gpt-4o (mini) & co',
  query: { search: 'q08 paris', outcome: 'incorrect', regime: 'jensen', sort: 'margin', descending: true },
  open: 'q/08?',
};

test('a state written into a fragment reads back the same, whatever its text holds', () => {
  const hash = withViewState('#/report/abc', state);
  expect(hash.startsWith('#/report/abc?')).toBe(true);
  expect(readViewState(hash)).toEqual(state);
  // The router still matches the path before the query, with its parameter intact.
  expect(matchRoute(hash)?.params).toEqual({ id: 'abc' });
});

test('the default state writes nothing: a link opens as it did before view state existed', () => {
  expect(viewStateQuery(DEFAULT_VIEW_STATE)).toBe('');
  expect(withViewState('#/?view=difficulty', DEFAULT_VIEW_STATE)).toBe('#/');
  expect(readViewState('#/shared/eJyrVkrLz1eyUkpKLFKqBQAd')).toEqual(DEFAULT_VIEW_STATE);
});

test("a share link keeps its payload; the offline file's bare fragment takes the query too", () => {
  const hash = withViewState('#/shared/eJyrVkrLz1eyUkpKLFKqBQAd', { ...DEFAULT_VIEW_STATE, view: 'questions', open: 'q08' });
  expect(hash).toBe('#/shared/eJyrVkrLz1eyUkpKLFKqBQAd?view=questions&open=q08');
  expect(matchRoute(hash)?.params).toEqual({ payload: 'eJyrVkrLz1eyUkpKLFKqBQAd' });
  expect(withViewState('', { ...DEFAULT_VIEW_STATE, open: 'q08' })).toBe('#?open=q08');
  expect(fragmentQuery('#?open=q08')).toBe('open=q08');
});

test('unknown or hand-mangled values fall back to the defaults instead of breaking the page', () => {
  const s = readViewState('#/?view=nonsense&outcome=maybe&regime=x&sort=a%20b&desc=yes&q=&open=');
  expect(s).toEqual(DEFAULT_VIEW_STATE);
});

test('the Slices view and its column round-trip through the link', () => {
  const hash = withViewState('#/report/abc', { ...DEFAULT_VIEW_STATE, view: 'slices', slice: 'category' });
  expect(hash).toBe('#/report/abc?view=slices&slice=category');
  expect(readViewState(hash)).toEqual({ ...DEFAULT_VIEW_STATE, view: 'slices', slice: 'category' });
});
