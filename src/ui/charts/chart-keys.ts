/**
 * Keyboard movement between a chart's marks: the chart is one Tab stop (its current mark) and the
 * arrow keys move along its marks in reading order, left to right and, at one x, top to bottom
 * (a roving tabindex, as the WAI-ARIA authoring practices describe for composite widgets).
 */

/** Where a key moves from mark `current` of `count`; null for a key that moves nothing. */
export function nextMarkIndex(key: string, current: number, count: number): number | null {
  if (count <= 0) return null;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return Math.min(count - 1, current + 1);
    case 'ArrowLeft':
    case 'ArrowUp':
      return Math.max(0, current - 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    case 'PageDown':
      return Math.min(count - 1, current + 10);
    case 'PageUp':
      return Math.max(0, current - 10);
    default:
      return null;
  }
}

/** The order the arrow keys visit marks in: by the centre's x, then its y; ties keep their order. */
export function readingOrder(centres: readonly { x: number; y: number }[]): number[] {
  return centres
    .map((c, i) => ({ ...c, i }))
    .sort((a, b) => a.x - b.x || a.y - b.y || a.i - b.i)
    .map((c) => c.i);
}

/**
 * Text scale of a chart drawn in a viewBox `viewWidth` wide and shown `shownWidth` pixels wide:
 * the factor its text's size is multiplied by so that text never renders smaller than set
 * (an SVG scaled down to a phone's width scales its text down with it). Never below 1: a chart
 * shown wider than its viewBox already draws its text larger.
 */
export function textScale(viewWidth: number, shownWidth: number): number {
  if (!(shownWidth > 0) || !(viewWidth > 0)) return 1;
  return Math.max(1, viewWidth / shownWidth);
}
