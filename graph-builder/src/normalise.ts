import type { BuildContext } from "./context.js";
import type { GraphNode } from "./graph.js";
import { reachable } from "./reach.js";

export const LONG_TIMER_MS = 1000;

/**
 * Seed 001 §3.7.4: what happened after the page's load event, and timers set for more than a
 * second, are kept but left out of the emulated graph, as is everything that depends on them, so
 * that every emulated run does the same work. A frame that started loading before load is
 * emulated whole.
 */
export function normalise(ctx: BuildContext): void {
  const main = ctx.frames.get(ctx.mainFrameId)!;
  const loadAt = main.load!.start;
  const wholeFrames = new Set(
    [...ctx.frames.values()].filter((f) => f.docs.some((doc) => (doc.chunks[0]?.start ?? Infinity) < loadAt)).map((f) => f.id),
  );
  const markers = new Set<GraphNode>([...ctx.frames.values()].flatMap((f) => [f.dcl!, f.load!]));
  // What the load event waits for is part of the load, even where the recording saw it start later,
  // and so is what it waits on: a resource a timer requested after the recording's load is raced
  // against a replay's later load only if the timer chain that requests it is emulated too.
  const held = new Set(ctx.draft.edges.filter((e) => e.to === main.load!.id && (e.rule === "completion-load" || e.rule === "completion-load-raced")).map((e) => e.from));
  const holdsLoad = new Set([...held, ...reachable(ctx.draft.edges, held, "up")]);
  for (const n of ctx.draft.nodes) {
    if ((markers.has(n) && wholeFrames.has(n.frameId)) || holdsLoad.has(n.id)) continue;
    if (n.kind === "timer" && n.timer!.timeoutMs > LONG_TIMER_MS) n.excluded = "long-timer";
    else if (n.start > loadAt + 1e-6 && !(wholeFrames.has(n.frameId) && n.frameId !== ctx.mainFrameId)) n.excluded = "after-load";
  }
  const children = new Map<string, GraphNode[]>();
  for (const e of ctx.draft.edges) children.set(e.from, [...(children.get(e.from) ?? []), ctx.draft.byId.get(e.to)!]);
  const stack = ctx.draft.nodes.filter((n) => n.excluded !== null);
  while (stack.length) {
    const n = stack.pop()!;
    for (const c of children.get(n.id) ?? []) {
      if (c.excluded !== null || c === main.load || c === main.dcl || holdsLoad.has(c.id)) continue;
      c.excluded = "descendant-of-excluded";
      stack.push(c);
    }
  }
}
