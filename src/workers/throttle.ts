/**
 * Leading + trailing throttle: the first call goes out at once, later ones at most every
 * `ms`, and the last value always arrives, so the page never shows a stale final state while the
 * structured clones of progress stay few.
 */
export function throttle<T>(fn: (value: T) => void, ms: number): { (value: T): void; flush(): void } {
  let last = -Infinity;
  let pending: { value: T } | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    if (!pending) return;
    const { value } = pending;
    pending = undefined;
    last = Date.now();
    fn(value);
  };
  const call = (value: T) => {
    pending = { value };
    const wait = last + ms - Date.now();
    if (wait <= 0) {
      if (timer !== undefined) clearTimeout(timer);
      fire();
    } else if (timer === undefined) {
      timer = setTimeout(fire, wait);
    }
  };
  call.flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    fire();
  };
  return call;
}
