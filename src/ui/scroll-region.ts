/**
 * A box that scrolls sideways (a wide table on a narrow screen) is marked and reachable: while
 * its content is wider than the box, it is a labelled region in the Tab order (so keyboard users
 * can scroll it with the arrow keys, WCAG 2.1.1) and carries the class `scrolls`, which the theme
 * draws as a shadow at the hidden edge (so a reader sees there is more). A box that fits keeps
 * no Tab stop.
 */
export function scrollRegion(node: HTMLElement, label: string) {
  node.setAttribute('role', 'region');
  node.setAttribute('aria-label', label);
  const update = () => {
    const scrolls = node.scrollWidth > node.clientWidth + 1;
    node.classList.toggle('scrolls', scrolls);
    if (scrolls) node.setAttribute('tabindex', '0');
    else node.removeAttribute('tabindex');
  };
  // Measured after layout, not now: reading scrollWidth while the page is being built forces a
  // layout of all of it in the same task (about 10 ms per table in a 40,000-question report).
  // A ResizeObserver reports every observed box once after its first layout, then on each change.
  const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
  if (observer) {
    observer.observe(node);
    if (node.firstElementChild) observer.observe(node.firstElementChild);
  } else update();
  return {
    update(next: string) {
      // A new label changes no size.
      node.setAttribute('aria-label', next);
    },
    destroy() {
      observer?.disconnect();
    },
  };
}
