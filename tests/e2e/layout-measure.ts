/**
 * What a page draws, as the layout checks see it (page-checks.test.ts): its width, its charts'
 * boxes, text rendered under 11 px, unmarked sideways scrollers, overlapping labels and
 * sentences split into flex items; and the problems those make at a given width.
 */
import type { Page } from 'playwright-core';

export interface Layout {
  scrollWidth: number;
  charts: { title: string; width: number; height: number; right: number }[];
  /** Text smaller than 11 px as rendered: SVG text's computed size times the SVG's scale on screen. */
  smallText: string[];
  /** Boxes that scroll sideways without being marked (the shadow class), labelled and reachable by keyboard. */
  unmarkedScrollers: string[];
  /** Whether the headline table is read as one card per model (no sideways scroll to reach the ECE columns). */
  headlineCards: boolean | null;
  /** Labels drawn over a mark or over another label, as rendered (the difficulty view's boundary labels and the charts' axis text). */
  overlaps: string[];
  /**
   * Wrapping flex boxes with loose text beside phrasing elements: each text run becomes a flex item of its
   * own, so a narrow screen breaks the sentence between them (", 0.75 standard errors" on a line
   * of its own).
   */
  splitSentences: string[];
}

/** What the page draws now: its width, its charts' boxes and any text rendered under 11 px. */
export function measure(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const shown = (e: Element) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
    };
    const small: string[] = [];
    for (const t of document.querySelectorAll<SVGTextElement>('.chart svg text')) {
      if (!shown(t) || !t.textContent?.trim()) continue;
      const m = t.getScreenCTM();
      const px = parseFloat(getComputedStyle(t).fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
      if (px < 10.95) small.push(`svg "${t.textContent.trim()}" ${px.toFixed(1)}px`);
    }
    // HTML text: every element that holds text of its own.
    for (const e of document.body.querySelectorAll<HTMLElement>('*')) {
      if (e.closest('svg') || e.closest('.visually-hidden') || !shown(e)) continue;
      const own = [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
      if (!own) continue;
      const px = parseFloat(getComputedStyle(e).fontSize);
      if (px < 10.95) small.push(`${e.tagName.toLowerCase()} "${e.textContent!.trim().slice(0, 30)}" ${px.toFixed(1)}px`);
    }
    const unmarked: string[] = [];
    for (const e of document.querySelectorAll<HTMLElement>('main *')) {
      // Content of a closed <details> is not on screen.
      if (!shown(e) || e.closest('svg') || e.closest('details:not([open]) > :not(summary)')) continue;
      const overflowX = getComputedStyle(e).overflowX;
      if ((overflowX === 'auto' || overflowX === 'scroll') && e.scrollWidth > e.clientWidth + 1) {
        const ok = e.classList.contains('scrolls') && e.getAttribute('tabindex') === '0' && e.getAttribute('role') === 'region' && !!e.getAttribute('aria-label');
        if (!ok) unmarked.push(`${e.tagName.toLowerCase()}.${e.className}`);
      }
    }
    const headline = document.querySelector<HTMLElement>('[data-table="headline"] tbody tr');
    const overlaps: string[] = [];
    const hit = (a: DOMRect, b: DOMRect) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    for (const chart of document.querySelectorAll('.chart')) {
      if (!shown(chart)) continue;
      const labels = [...chart.querySelectorAll<SVGTextElement>('svg text')].filter((t) => t.textContent?.trim());
      const marks = [...chart.querySelectorAll<SVGGraphicsElement>('[data-mark]')].map((m) => m.getBoundingClientRect());
      // A text's box is its em box, taller than its glyphs (line gap, descenders): a fifth off the top and bottom is the ink.
      const boxes = labels.map((t) => {
        const r = t.getBoundingClientRect();
        const inset = Math.min(r.width, r.height) * 0.2;
        return new DOMRect(r.left, r.top + inset, r.width, Math.max(0, r.height - 2 * inset));
      });
      // Text outside the SVG's box is cut off or runs into the legend and caption.
      const frame = chart.querySelector('.frame > svg')!.getBoundingClientRect();
      for (let i = 0; i < labels.length; i++) {
        const b = boxes[i];
        if (b.left < frame.left - 2 || b.right > frame.right + 2 || b.top < frame.top - 2 || b.bottom > frame.bottom + 2) overlaps.push(`"${labels[i].textContent!.trim()}" outside its chart`);
      }
      for (let i = 0; i < labels.length; i++) {
        const name = labels[i].textContent!.trim();
        if (labels[i].classList.contains('boundary-label') && marks.some((m) => hit(boxes[i], m))) overlaps.push(`"${name}" over a mark`);
        for (let j = i + 1; j < labels.length; j++) if (hit(boxes[i], boxes[j])) overlaps.push(`"${name}" over "${labels[j].textContent!.trim()}"`);
      }
    }
    const split: string[] = [];
    for (const e of document.querySelectorAll<HTMLElement>('body *')) {
      if (!shown(e) || e.closest('svg')) continue;
      const style = getComputedStyle(e);
      if (!style.display.includes('flex') || style.flexWrap === 'nowrap') continue;
      const kids = [...e.childNodes];
      const loose = kids.filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
      // Text beside a form control (a label's input) is meant to wrap apart; beside phrasing elements it is one sentence.
      const phrasing = kids.some((n) => n instanceof HTMLElement && /^(STRONG|EM|B|I|SPAN|A|CODE|ABBR|SMALL|SUB|SUP)$/.test(n.tagName));
      if (loose.length && phrasing) split.push(`${e.tagName.toLowerCase()}.${e.className}: "${loose[0].textContent!.trim().slice(0, 30)}"`);
    }
    return {
      splitSentences: split,
      unmarkedScrollers: unmarked,
      overlaps,
      headlineCards: headline ? getComputedStyle(headline).display === 'block' : null,
      scrollWidth: document.documentElement.scrollWidth,
      charts: [...document.querySelectorAll('.chart')].filter(shown).map((c) => {
        const r = c.getBoundingClientRect();
        return { title: c.querySelector('.chart-title')?.textContent ?? '', width: r.width, height: r.height, right: r.right };
      }),
      smallText: small,
    };
  });
}

/** What is wrong with the page's layout `l` at `width` px: an empty list when nothing is. */
export function layoutProblems(l: Layout, width: number): string[] {
  const found: string[] = [];
  if (l.scrollWidth > width) found.push(`page is ${l.scrollWidth} px wide`);
  for (const c of l.charts) {
    // A chart is never wider than 40rem (600 px) nor than the screen, and never taller than it is wide by much.
    if (c.width > 601 || c.right > width + 0.5) found.push(`chart "${c.title}" ${c.width.toFixed(0)} px wide, right edge ${c.right.toFixed(0)}`);
    if (c.height > 2 * c.width + 200) found.push(`chart "${c.title}" ${c.height.toFixed(0)} px tall`);
  }
  found.push(...l.smallText.slice(0, 8));
  found.push(...l.unmarkedScrollers.map((u) => `unmarked scroller ${u}`));
  found.push(...l.overlaps.slice(0, 8));
  found.push(...l.splitSentences.map((t) => `sentence split into flex items: ${t}`));
  // On a phone the headline table is a card per model; on a wide screen, a table.
  if (l.headlineCards !== null && l.headlineCards !== width < 640) found.push(`headline table ${l.headlineCards ? 'as cards' : 'as a table'}`);
  return found;
}
