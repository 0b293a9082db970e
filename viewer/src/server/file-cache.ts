import { statSync } from "node:fs";

/**
 * Results computed from a file, remembered until the file changes (path + mtime + size + options).
 * Promises are kept, so concurrent requests for the same slow layout share one dot run.
 */
export class FileCache<T> {
  private readonly entries = new Map<string, Promise<T>>();

  constructor(private readonly capacity: number) {}

  get(path: string, options: string, compute: () => Promise<T>): Promise<T> {
    const st = statSync(path);
    const key = JSON.stringify([path, st.mtimeMs, st.size, options]);
    const hit = this.entries.get(key);
    if (hit) return hit;
    const value = compute();
    // Failures are dropped so that asking again retries (a dot timeout on a busy machine is not final).
    value.catch(() => this.entries.delete(key));
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}
