import { expect, test } from 'vitest';
import { STORAGE_FULL, storageFullAtStart, storageWriteError } from '../../../src/store/write-errors';

test('a full origin says so, with what to do and that nothing stored is lost, however the browser words it', async () => {
  const forms = [
    new DOMException('', 'QuotaExceededError'),
    Object.assign(new DOMException('', 'AbortError'), { error: new DOMException('', 'QuotaExceededError') }),
    new Error('Encountered full disk while opening backing store: quota exceeded'),
  ];
  for (const e of forms) {
    const out = await storageWriteError(e, '12 sample(s)');
    expect(out.name).toBe(STORAGE_FULL);
    expect(out.message).toMatch(/^The browser's storage for this site is full.*, so 12 sample\(s\) could not be stored\. Everything stored before is kept\. Free some space .*Runs page.*then resume\.$/);
  }
});

test('any other failure keeps its name and message, and an empty message is never shown as nothing', async () => {
  expect((await storageWriteError(new DOMException('', 'InvalidStateError'), 'samples')).message).toBe('Could not store samples: InvalidStateError.');
  expect((await storageWriteError(new DOMException('The database connection is closing.', 'InvalidStateError'), 'samples')).message).toBe('Could not store samples: InvalidStateError: The database connection is closing.');
  expect((await storageWriteError(Object.assign(new Error(''), { name: '' }), 'a report')).message).toBe('Could not store a report: the browser gave no reason.');
});

test('at "Start run" a full origin says the new run was not stored and to start it again: there is no run to resume yet', async () => {
  const refused = await storageWriteError(new DOMException('', 'QuotaExceededError'), "the run's progress");
  const atStart = storageFullAtStart(refused) as Error;
  expect(atStart.name).toBe(STORAGE_FULL);
  expect(atStart.message).toMatch(/^The browser's storage for this site is full.*, so the new run could not be stored and nothing was sent\. Everything stored before is kept\. Free some space .*Runs page.*then start the run again\.$/);
  expect(atStart.message).not.toMatch(/resume/i);
  // Any other failure at the start is passed on as it was.
  const other = await storageWriteError(new DOMException('', 'InvalidStateError'), "the run's progress");
  expect(storageFullAtStart(other)).toBe(other);
});
