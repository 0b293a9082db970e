/** Where a queue's Redis is: what `--redis redis://[:password@]host[:port][/db]` names. */
export interface RedisTarget {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  /** The URL as it may be printed: the password masked. */
  shown: string;
}

/** Parses a `--redis` URL; throws an Error naming it and what is wrong. */
export function parseRedisUrl(text: string): RedisTarget {
  const bad = (why: string) => new Error(`--redis ${mask(text)}: ${why}; expected redis://[:password@]host[:port][/db], e.g. redis://127.0.0.1:6379`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw bad("not a URL");
  }
  if (url.protocol !== "redis:") throw bad(`the scheme must be redis:, not ${url.protocol}`);
  if (url.hostname === "") throw bad("no host");
  if (url.search !== "" || url.hash !== "") throw bad("unexpected ?query or #fragment");
  const port = url.port === "" ? 6379 : Number(url.port);
  const dbText = url.pathname.replace(/^\//, "");
  if (!/^\d*$/.test(dbText)) throw bad(`the database "${dbText}" must be a number`);
  const target: RedisTarget = { host: url.hostname.replace(/^\[(.*)\]$/, "$1"), port, db: Number(dbText || 0), shown: mask(text) };
  if (url.username !== "") target.username = decodeURIComponent(url.username);
  if (url.password !== "") target.password = decodeURIComponent(url.password);
  return target;
}

/** The URL with any password replaced, so it can go in messages and logs (a mistyped scheme too). */
function mask(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*:)[^@/]*@/i, "$1***@");
}
