import type { GraphNode, NodeKind } from "./graph.js";

/**
 * The Table 3.1 rule (seed 001) for an edge between two kinds of activity, where the kinds alone
 * decide it. Rules that need more (R11/R13 CSS before scripts, R17 defer, completion markers) are
 * named where those edges are made.
 */
export function ruleFor(parent: GraphNode, child: GraphNode): string {
  const p = parent.kind;
  const c = child.kind;
  if (c === "resource") return p === "parse" ? "R1" : "R2";
  if (c === "download") {
    if (p === "download") return "R9";
    return ({ parse: "R5", script: "R6", event: "R7", timer: "R8" } as Partial<Record<NodeKind, string>>)[p] ?? "R5";
  }
  if (c === "parse") return p === "script" ? "R4" : "R3";
  if (c === "script") {
    return ({ resource: "R10", css: "R13", parse: "R12", script: "R14", event: "R15", timer: "R16" } as Partial<Record<NodeKind, string>>)[p] ?? "R14";
  }
  if (c === "css") return "R18";
  if (c === "timer") return ({ event: "R20", timer: "R21" } as Partial<Record<NodeKind, string>>)[p] ?? "R19";
  return "R25";
}
