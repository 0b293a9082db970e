import type { Draft } from "./draft.js";
import type { GraphEdge } from "./graph.js";

/**
 * The graph must be a DAG. Rules applied to a real trace can disagree (an inferred edge against the
 * recorded order); each cycle found is broken at its weakest edge, an inferred one if there is any,
 * and reported.
 */
export function breakCycles(draft: Draft): void {
  for (let round = 0; round < 10_000; round++) {
    const cycle = findCycle(draft);
    if (!cycle) return;
    const weakest = cycle.find((e) => e.how === "inferred") ?? cycle[cycle.length - 1]!;
    draft.removeEdge(weakest);
    draft.warnings.push(
      `cycle ${cycle.map((e) => e.from).join(" -> ")} -> ${cycle[0]!.from} broken by removing ${weakest.how} edge ${weakest.from} -> ${weakest.to} (${weakest.rule})`,
    );
  }
  throw new Error("too many dependency cycles to break");
}

/** One cycle as its edges, found by an iterative depth-first search; null if there is none. */
export function findCycle(draft: Draft): GraphEdge[] | null {
  const out = new Map<string, GraphEdge[]>();
  for (const e of draft.edges) out.set(e.from, [...(out.get(e.from) ?? []), e]);
  const state = new Map<string, 1 | 2>(); // 1 on the current path, 2 done
  for (const start of draft.nodes) {
    if (state.has(start.id)) continue;
    const path: GraphEdge[] = [];
    const stack: { id: string; next: number }[] = [{ id: start.id, next: 0 }];
    state.set(start.id, 1);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const edges = out.get(top.id) ?? [];
      if (top.next >= edges.length) {
        state.set(top.id, 2);
        stack.pop();
        path.pop();
        continue;
      }
      const e = edges[top.next++]!;
      const s = state.get(e.to);
      if (s === 1) {
        const from = path.findIndex((p) => p.from === e.to);
        return [...(from >= 0 ? path.slice(from) : []), e];
      }
      if (s === undefined) {
        state.set(e.to, 1);
        path.push(e);
        stack.push({ id: e.to, next: 0 });
      }
    }
  }
  return null;
}
