import { expect, test } from 'vitest';
import { scrollRegion } from '../../../src/ui/scroll-region';

/** The few members of an element the action reads and writes (Node has no DOM). */
function fakeBox(scrollWidth: number, clientWidth: number) {
  const attrs = new Map<string, string>();
  const classes = new Set<string>();
  return {
    scrollWidth,
    clientWidth,
    firstElementChild: null,
    setAttribute: (k: string, v: string) => void attrs.set(k, v),
    removeAttribute: (k: string) => void attrs.delete(k),
    getAttribute: (k: string) => attrs.get(k) ?? null,
    classList: { toggle: (c: string, on: boolean) => void (on ? classes.add(c) : classes.delete(c)), contains: (c: string) => classes.has(c) },
    attrs,
    classes,
  };
}

test('a box wider inside than out is a labelled region in the Tab order, marked as scrolling', () => {
  const box = fakeBox(900, 360);
  scrollRegion(box as unknown as HTMLElement, 'Questions table');
  expect(Object.fromEntries(box.attrs)).toEqual({ role: 'region', 'aria-label': 'Questions table', tabindex: '0' });
  expect(box.classes.has('scrolls')).toBe(true);
});

test('a box that fits keeps no Tab stop and no mark; a new label replaces the old', () => {
  const box = fakeBox(360, 360);
  const action = scrollRegion(box as unknown as HTMLElement, 'Runs table');
  expect(box.attrs.get('tabindex')).toBeUndefined();
  expect(box.classes.has('scrolls')).toBe(false);
  action.update('Saved reports');
  expect(box.attrs.get('aria-label')).toBe('Saved reports');
  action.destroy();
});

test('with a ResizeObserver the box is measured only when the observer reports, never at mount; destroy disconnects it', () => {
  const observers: { callback: () => void; observed: unknown[]; disconnected: boolean }[] = [];
  class FakeObserver {
    record: { callback: () => void; observed: unknown[]; disconnected: boolean };
    constructor(callback: () => void) {
      this.record = { callback, observed: [], disconnected: false };
      observers.push(this.record);
    }
    observe(target: unknown) {
      this.record.observed.push(target);
    }
    disconnect() {
      this.record.disconnected = true;
    }
  }
  const saved = (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver = FakeObserver;
  try {
    const box = fakeBox(900, 360);
    let reads = 0;
    const measured = new Proxy(box, { get: (t, k) => ((k === 'scrollWidth' && reads++), Reflect.get(t, k)) });
    const action = scrollRegion(measured as unknown as HTMLElement, 'Questions table');
    expect(reads).toBe(0);
    expect(box.attrs.get('tabindex')).toBeUndefined();
    expect(observers).toHaveLength(1);
    observers[0].callback();
    expect(reads).toBe(1);
    expect(box.attrs.get('tabindex')).toBe('0');
    expect(box.classes.has('scrolls')).toBe(true);
    action.destroy();
    expect(observers[0].disconnected).toBe(true);
  } finally {
    (globalThis as { ResizeObserver?: unknown }).ResizeObserver = saved;
  }
});
