/** A recording that cannot be read, with the file and the place that is wrong. */
export class RecordingError extends Error {
  constructor(readonly file: string, detail: string) {
    super(`${file}: ${detail}`);
  }
}
