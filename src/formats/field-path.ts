/**
 * A validation issue's place in a document, as the app's messages name it:
 * "models[0].questions[12].sem1" from zod's path array. Its own module, so a small schema
 * (the abstention threshold) words paths like the report's without loading the report schema.
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(document)';
}
