/** The viewer's state lives in the URL hash, so a reload or a shared link restores it. */
export type View = "index" | "graph" | "timeline";

export interface ViewState {
  view: View;
  /** Graph file, relative to the served directory. */
  site: string | null;
  node: string | null;
  rankdir: "LR" | "TB";
}

export function readState(hash = location.hash): ViewState {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  const view = p.get("view");
  return {
    view: view === "graph" || view === "timeline" ? view : "index",
    site: p.get("site"),
    node: p.get("node"),
    rankdir: p.get("rankdir") === "TB" ? "TB" : "LR",
  };
}

export function stateHash(s: ViewState): string {
  const p = new URLSearchParams({ view: s.view });
  if (s.site) p.set("site", s.site);
  if (s.node) p.set("node", s.node);
  if (s.rankdir !== "LR") p.set("rankdir", s.rankdir);
  return "#" + p.toString();
}

export function go(change: Partial<ViewState>): void {
  location.hash = stateHash({ ...readState(), ...change });
}
