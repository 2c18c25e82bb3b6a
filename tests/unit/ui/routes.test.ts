import { describe, expect, test } from 'vitest';
import { hashPath, matchRoute, type RouteDef } from '../../../src/ui/routes';

const page = async () => ({ default: (() => {}) as never });
const table: RouteDef[] = [
  { pattern: '/', title: 'home', load: page },
  { pattern: '/report/:id', title: 'report', load: page },
  { pattern: '/shared/*payload', title: 'shared', load: page },
];

describe('hash router', () => {
  test('empty and bare hashes go home', () => {
    expect(hashPath('')).toBe('/');
    expect(hashPath('#')).toBe('/');
    expect(hashPath('#report/1')).toBe('/report/1');
    expect(matchRoute('', table)?.route.title).toBe('home');
    expect(matchRoute('#/', table)?.route.title).toBe('home');
  });
  test(':params are decoded; a query part is ignored', () => {
    expect(matchRoute('#/report/run%201?x=1', table)).toMatchObject({ route: { title: 'report' }, params: { id: 'run 1' } });
  });
  test('a *rest param takes the rest of the path, slashes included', () => {
    expect(matchRoute('#/shared/abc/def', table)?.params).toEqual({ payload: 'abc/def' });
  });
  test('no match, extra segments and malformed escapes give null rather than a crash', () => {
    expect(matchRoute('#/nope', table)).toBeNull();
    expect(matchRoute('#/report/1/extra', table)).toBeNull();
    expect(matchRoute('#/report', table)).toBeNull();
    expect(matchRoute('#/report/%E0%A4%A', table)).toBeNull();
  });
  test('the app table maps the header links it has pages for', () => {
    expect(matchRoute('#/open')?.route.title).toBe('Open a report');
    expect(matchRoute('#/report/abc')?.params.id).toBe('abc');
  });
});
