/** A recording that cannot be read, with the file and the place that is wrong. */
export class RecordingError extends Error {
  constructor(readonly file: string, detail: string) {
    super(`${file}: ${detail}`);
  }
}

/** JSON.parse, failing with a RecordingError that names `where` (a file, or a file and line). */
export function parseJson(where: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new RecordingError(where, `not valid JSON (${(e as Error).message}); the file may be truncated or corrupt`);
  }
}
