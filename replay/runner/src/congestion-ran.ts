/**
 * Whether the servers' connections ran the congestion controller the run asked for. The kernel may
 * refuse TCP_CONGESTION on a socket (a controller not allowed for unprivileged use, a module that
 * went away), and the server then keeps what the kernel gave; connections.jsonl records what each
 * connection ended up with, so a disagreement is said in the run's warnings, never hidden.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A warning sentence when connections in `serverOut`'s connections.jsonl ran another controller than `asked`; none otherwise. */
export function congestionWarnings(serverOut: string, asked: string): string[] {
  const file = join(serverOut, "connections.jsonl");
  if (!existsSync(file)) return [];
  const ran = new Map<string, number>();
  let total = 0;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const got = (JSON.parse(line) as { congestion?: string | null }).congestion;
    // null: the kernel did not say, which is no evidence either way.
    if (got === null || got === undefined) continue;
    total++;
    if (got !== asked) ran.set(got, (ran.get(got) ?? 0) + 1);
  }
  if (ran.size === 0) return [];
  const others = [...ran].map(([name, n]) => `${n} ran ${name}`).join(", ");
  return [`congestion control: ${asked} was asked for, but of the servers' ${total} connections that say, ${others} (connections.jsonl)`];
}
