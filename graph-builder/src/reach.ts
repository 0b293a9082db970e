/**
 * Every node reachable from `starts` along the edges, towards children ("down") or towards
 * parents ("up"); a start is in the set only if another start reaches it.
 */
export function reachable(edges: readonly { from: string; to: string }[], starts: Iterable<string>, direction: "down" | "up"): Set<string> {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    const [a, b] = direction === "down" ? [e.from, e.to] : [e.to, e.from];
    next.set(a, [...(next.get(a) ?? []), b]);
  }
  const seen = new Set<string>();
  const stack = [...starts];
  while (stack.length) {
    for (const n of next.get(stack.pop()!) ?? []) {
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(n);
    }
  }
  return seen;
}
