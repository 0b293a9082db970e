import { Queue, type ConnectionOptions } from "bullmq";
import { QUEUE_NAME, type RunQueue } from "./jobs.js";
import { parseRedisUrl } from "./redis-url.js";

const CONNECT_TIMEOUT_MS = 3000;
const READY_TIMEOUT_MS = 5000;

/**
 * BullMQ connection options for a `--redis` URL, after making sure within a few seconds that a Redis
 * answers there. BullMQ's clients retry for ever, which suits a worker riding out a Redis restart but
 * would leave a mistyped URL hanging in silence, so the first connection is tried once.
 */
export async function checkRedis(url: string): Promise<{ connection: ConnectionOptions; shown: string }> {
  const t = parseRedisUrl(url);
  const connection: ConnectionOptions = { host: t.host, port: t.port, db: t.db, username: t.username, password: t.password, connectTimeout: CONNECT_TIMEOUT_MS };
  const probe = new Queue(QUEUE_NAME, { connection: { ...connection, retryStrategy: () => null } });
  probe.on("error", () => undefined);
  try {
    await within(probe.waitUntilReady(), READY_TIMEOUT_MS);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new Error(`--redis ${t.shown}: cannot connect to Redis (${err.code ?? err.message})`);
  } finally {
    await within(probe.close(), READY_TIMEOUT_MS).catch(() => probe.disconnect());
  }
  return { connection, shown: t.shown };
}

/** The run queue on a checked Redis. */
export async function openRunQueue(url: string): Promise<{ queue: RunQueue; shown: string }> {
  const { connection, shown } = await checkRedis(url);
  const queue: RunQueue = new Queue(QUEUE_NAME, { connection });
  // Errors surface where commands fail; without a listener an 'error' event would end the process.
  queue.on("error", () => undefined);
  return { queue, shown };
}

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(Object.assign(new Error("no answer"), { code: "ETIMEDOUT" })), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
