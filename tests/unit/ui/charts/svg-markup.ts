/**
 * A small reader of the SVG markup that `svelte/server` renders, so chart tests in Node can
 * measure what a chart draws (no DOM in Node): elements with their attributes, children and text.
 */
import { render } from 'svelte/server';
import type { Component } from 'svelte';

export interface Node {
  tag: string;
  attrs: Record<string, string>;
  children: Node[];
  text: string;
}

const VOID = new Set(['br', 'hr', 'img', 'input', 'meta', 'link']);
const decode = (s: string) =>
  s.replace(/&(quot|amp|lt|gt|#39);/g, (_, e: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'" })[e]!);

/** The element tree of `markup` under a root node (tag ''); comments are dropped. */
export function parse(markup: string): Node {
  const root: Node = { tag: '', attrs: {}, children: [], text: '' };
  const stack = [root];
  const token = /<!--[\s\S]*?-->|<\/([\w:-]+)\s*>|<([\w:-]+)((?:\s+[\w:-]+(?:="[^"]*")?)*)\s*(\/?)>|([^<]+)/g;
  for (const m of markup.matchAll(token)) {
    const top = stack[stack.length - 1];
    if (m[1]) {
      if (top.tag !== m[1]) throw new Error(`</${m[1]}> closes <${top.tag}>`);
      stack.pop();
    } else if (m[2]) {
      const attrs: Record<string, string> = {};
      for (const a of m[3].matchAll(/([\w:-]+)(?:="([^"]*)")?/g)) attrs[a[1]] = decode(a[2] ?? '');
      const node: Node = { tag: m[2], attrs, children: [], text: '' };
      top.children.push(node);
      if (!m[4] && !VOID.has(m[2])) stack.push(node);
    } else if (m[5]) {
      top.text += decode(m[5]);
    }
  }
  return root;
}

/** Renders a component on the server and parses its body. */
export function draw<P extends Record<string, unknown>>(component: Component<P>, props: P): Node {
  return parse(render(component as Component<Record<string, unknown>>, { props }).body);
}

const classes = (n: Node) => (n.attrs.class ?? '').split(/\s+/).filter(Boolean);

/** Every node under `root` (depth first, in document order) with this tag and, if given, class. */
export function all(root: Node, tag: string, cls?: string): Node[] {
  const found: Node[] = [];
  const walk = (n: Node) => {
    for (const c of n.children) {
      if (c.tag === tag && (cls === undefined || classes(c).includes(cls))) found.push(c);
      walk(c);
    }
  };
  walk(root);
  return found;
}

/** A numeric attribute; throws when it is missing, so a test never compares NaN by accident. */
export function num(n: Node, attr: string): number {
  const v = n.attrs[attr];
  if (v === undefined) throw new Error(`<${n.tag}> has no ${attr}`);
  return Number(v);
}

/** The (x, y) of a `translate(x,y)` transform. */
export function translation(n: Node): [number, number] {
  const m = /translate\(([-\d.e]+),\s*([-\d.e]+)\)/.exec(n.attrs.transform ?? '');
  if (!m) throw new Error(`<${n.tag}> has no translate()`);
  return [Number(m[1]), Number(m[2])];
}
