import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

test('the dark palette of the media query and of the explicit choice are the same declarations', () => {
  const css = readFileSync('src/ui/theme.css', 'utf8');
  const blocks = [...css.matchAll(/\{([^{}]*color-scheme: dark;[^{}]*)\}/g)].map((m) =>
    m[1].split('\n').map((line) => line.trim()).filter(Boolean).sort(),
  );
  expect(blocks).toHaveLength(2);
  expect(blocks[0]).toEqual(blocks[1]);
});
