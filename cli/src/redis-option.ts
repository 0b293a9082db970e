import { UsageError } from "./verb.js";

/**
 * The Redis URL of `--redis`. `--queue URL` was its name in `experiment` and `worker` while
 * `replay`, `simulate` and `net up` used `--queue` for a link's queue discipline; the old spelling
 * still works for a release, with a notice.
 */
export function redisOption(values: Record<string, unknown>): string | undefined {
  const [redis, queue] = [values.redis, values.queue] as (string | undefined)[];
  if (queue === undefined) return redis;
  if (redis !== undefined) throw new UsageError("--queue URL is the old spelling of --redis URL: give one of them");
  // The URL may hold a password: the notice does not repeat it.
  process.stderr.write("pagepath: --queue URL is now --redis URL; the old spelling works until the next release\n");
  return queue;
}
