import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { QUEUE_NAME, type RunQueue } from "./jobs.js";

/**
 * How long a collector's claim on an experiment outlives the collector: one that crashed blocks
 * the next for at most this long, and a live one renews it three times as often.
 */
export const COLLECTOR_LOCK_MS = 15_000;

/** Takes the lock if it is free or already ours; renews it if ours. Returns the holder's value. */
const CLAIM = `
local held = redis.call('GET', KEYS[1])
if held == false or held == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return ARGV[1]
end
return held`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Another live collector holds the plan. */
export class CollectorBusy extends Error {}

interface Holder {
  host: string;
  pid: number;
  since: string;
  token: string;
}

export interface CollectorLock {
  /** Set when another collector took the lock over (this one's lapsed): stop recording. */
  readonly lost: string | null;
  release(): Promise<void>;
}

/**
 * Claims the right to record the results of one version of a plan (its job id prefix): two
 * collectors would each take finished jobs from Redis and write them to their own runs file, or
 * both to the same one. Renewed while held, and taken again if Redis came back without it (a
 * restart); throws, naming the plan and the holder, if another live collector holds it.
 */
export async function claimCollector(queue: RunQueue, prefix: string, planFile: string, lockMs = COLLECTOR_LOCK_MS): Promise<CollectorLock> {
  const client = await queue.client;
  client.defineCommand("pagepathClaimCollector", { numberOfKeys: 1, lua: CLAIM });
  client.defineCommand("pagepathReleaseCollector", { numberOfKeys: 1, lua: RELEASE });
  const key = collectorLockKey(prefix);
  const me: Holder = { host: hostname(), pid: process.pid, since: new Date().toISOString(), token: randomUUID() };
  const value = JSON.stringify(me);
  const claim = async () => String(await client.runCommand("pagepathClaimCollector", [key, value, lockMs]));
  const held = await claim();
  if (held !== value) throw new CollectorBusy(`${planFile}: another collector is running for plan ${prefix.split("~")[0]} (${describe(held)}); wait for it to finish or stop it (a collector that died lets go within ${lockMs / 1000} s)`);

  let lost: string | null = null;
  const renew = setInterval(() => {
    claim().then(
      (now) => {
        if (now !== value && lost === null) lost = `${planFile}: another collector took over plan ${prefix.split("~")[0]} (${describe(now)}) while this one could not renew its claim`;
      },
      // Redis is away: the claim goes with it, and comes back with the next renewal.
      () => undefined,
    );
  }, lockMs / 3);
  renew.unref();
  return {
    get lost() {
      return lost;
    },
    async release() {
      clearInterval(renew);
      await client.runCommand("pagepathReleaseCollector", [key, value]).catch(() => undefined);
    },
  };
}

/** Beside BullMQ's keys of the run queue (its default prefix, which pagepath keeps). */
export function collectorLockKey(jobPrefix: string): string {
  return `bull:${QUEUE_NAME}:collector:${jobPrefix}`;
}

function describe(held: string): string {
  try {
    const h = JSON.parse(held) as Holder;
    return `pid ${h.pid} on ${h.host}, since ${h.since}`;
  } catch {
    return "a collector of an unknown version";
  }
}
