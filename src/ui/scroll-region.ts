/**
 * A box that scrolls sideways (a wide table on a narrow screen) is marked and reachable: while
 * its content is wider than the box, it is a labelled region in the Tab order (so keyboard users
 * can scroll it with the arrow keys, WCAG 2.1.1) and carries the class `scrolls`, which the theme
 * draws as a shadow at the hidden edge (so a reader sees there is more). A box that fits keeps
 * no Tab stop.
 *
 * Measured when the ResizeObserver reports (right after layout, including the first layout), never
 * at mount: reading scrollWidth while the page is being built forces a layout per table (about
 * 36 ms of opening a 40,000-question report). Where there is no ResizeObserver, at mount.
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
  const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
  if (!observer) update();
  observer?.observe(node);
  if (node.firstElementChild) observer?.observe(node.firstElementChild);
  return {
    update(next: string) {
      node.setAttribute('aria-label', next);
      update();
    },
    destroy() {
      observer?.disconnect();
    },
  };
}
