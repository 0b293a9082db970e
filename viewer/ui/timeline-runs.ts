/** The timeline's replayed runs: which runs replayed the open graph, and the controls choosing them. */
import type { NodeTiming, RequestPathBytes, RequestPhases } from "@pagepath/results";
import type { GraphRuns, ReplayedRun } from "../src/server/api.js";
import { fetchJson } from "./fetch-json.js";
import { escapeHtml } from "./format.js";
import { go, type ViewState } from "./state.js";

/** A run as the timeline draws it: its timings by node id, and how the legend names it. */
export interface ShownRun {
  run: ReplayedRun;
  name: string;
  color: string;
  timing: Map<string, NodeTiming>;
  /** What each node's requests sent per path, in path order; a node without a record is absent. */
  paths: Map<string, RequestPathBytes[]>;
  /** Each node's request phases, where the run's client recorded them. */
  phases: Map<string, RequestPhases>;
}

export const RUN_COLORS = { a: "#2b6cb0", b: "#dd6b20" } as const;

/** The graph's runs as last fetched, for a redraw that asks for no fresh list. */
let lastRuns: { file: string; runs: Promise<GraphRuns> } | undefined;

/**
 * The graph's runs. Fetched afresh for each redraw, as a sweep appends runs while the viewer is
 * open, unless `fresh` is false and they were fetched for this graph before: a what-if changes no
 * recorded run, and the server's search of a corpus folder for runs takes a tenth of a second.
 */
export function runsOf(file: string, fresh = true): Promise<GraphRuns> {
  if (fresh || lastRuns?.file !== file) {
    const runs = fetchJson<GraphRuns>(`/api/runs?file=${encodeURIComponent(file)}`);
    lastRuns = { file, runs };
    runs.catch(() => (lastRuns = undefined));
  }
  return lastRuns!.runs;
}

export function runLabel(r: ReplayedRun): string {
  const c = r.cell;
  // A run result of its own is named by its file; it has no replication number to tell it apart.
  const name = r.experiment === null ? `${r.runFile} (${r.client})` : r.experiment.replace(/^.*\//, "").replace(/\.plan\.json$/, "");
  const replication = r.experiment === null ? "" : `, run ${c.run}`;
  return `${name}: ${c.network}, ${c.protocol}/${c.transport}, ${c.serverModel} server, priority ${c.priority}${r.pathUse.scheduler ? `, scheduler ${r.pathUse.scheduler}` : ""}${replication}${r.status === "ok" ? "" : ` (${r.status})`}`;
}

function shown(runs: ReplayedRun[], key: string | null, slot: "a" | "b"): ShownRun | null {
  const run = runs.find((r) => r.key === key);
  if (!run) return null;
  return { run, name: `run ${slot.toUpperCase()}`, color: RUN_COLORS[slot], timing: new Map((run.nodeTimings ?? []).map((t) => [t.nodeId, t])), paths: pathsByNode(run), phases: new Map((run.nodePhases ?? []).map((p) => [p.nodeId, p.phases])) };
}

/** A node fetched more than once (a redirect, a retry) has its requests' bytes per path added up. */
function pathsByNode(run: ReplayedRun): Map<string, RequestPathBytes[]> {
  const out = new Map<string, Map<number, RequestPathBytes>>();
  for (const { nodeId, paths } of run.nodePaths) {
    const mine = out.get(nodeId) ?? new Map<number, RequestPathBytes>();
    for (const p of paths) {
      const had = mine.get(p.path);
      mine.set(
        p.path,
        had ? { path: p.path, bytes: had.bytes + p.bytes, packets: had.packets === null || p.packets === null ? null : had.packets + p.packets, firstMs: Math.min(had.firstMs, p.firstMs), lastMs: Math.max(had.lastMs, p.lastMs) } : p,
      );
    }
    out.set(nodeId, mine);
  }
  return new Map([...out].map(([id, m]) => [id, [...m.values()].sort((a, b) => a.path - b.path)]));
}

/** The chosen runs; a second run only counts beside a first. */
export function chosenRuns(all: GraphRuns, state: ViewState): { a: ShownRun | null; b: ShownRun | null } {
  const a = shown(all.runs, state.run, "a");
  return { a, b: a ? shown(all.runs, state.vs, "b") : null };
}

function select(id: string, runs: ReplayedRun[], current: string | null, none: string): string {
  const options = runs.map((r) => `<option value="${escapeHtml(r.key)}"${r.key === current ? " selected" : ""}>${escapeHtml(runLabel(r))}</option>`);
  return `<select id="${id}"><option value="">${none}</option>${options.join("")}</select>`;
}

/** What the toolbar says about the chosen runs: what was not measured and what could not be found. */
function notes(all: GraphRuns, state: ViewState, a: ShownRun | null, b: ShownRun | null): string[] {
  const out: string[] = [];
  if (state.run && !a) out.push(`run ${state.run} did not replay this graph (or is gone)`);
  if (state.vs && a && !b) out.push(`run ${state.vs} did not replay this graph (or is gone)`);
  for (const s of [a, b]) {
    if (!s) continue;
    const m = s.run.metrics;
    const missing = [["DOMContentLoaded", m.domContentLoadedMs], ["load", m.loadMs]].filter(([, v]) => v === null).map(([k]) => k);
    if (missing.length) out.push(`${s.name} ${missing.join(", ")}: not measured`);
    if (s.run.nodeTimings === null) out.push(`${s.name}: its client does not time nodes`);
    if (!s.run.sameBytes) out.push(`${s.name} replayed other bytes of this graph (rebuilt since?)`);
  }
  if (all.problems.length) out.push(`${all.problems.length} experiment(s) or run result(s) could not be read; their runs are not listed`);
  return out;
}

/** The run choices, and for two runs the threshold above which a node counts as changed. */
export function runControls(all: GraphRuns, state: ViewState, a: ShownRun | null, b: ShownRun | null): string {
  if (all.runs.length === 0) return `<span class="note">no experiment or run result in the served directory replayed this graph</span>`;
  let html = `<label>replayed run ${select("run", all.runs, state.run, "none")}</label>`;
  if (a) html += `<label>compare with run ${select("vs", all.runs.filter((r) => r.key !== a.run.key), state.vs, "none")}</label>`;
  if (b) html += `<label>changed above <input id="threshold" type="number" min="0" step="10" value="${state.threshold}" style="width:5em"> ms</label>`;
  return html + notes(all, state, a, b).map((n) => `<span class="note run-note">${escapeHtml(n)}</span>`).join("");
}

export function wireRunControls(main: HTMLElement): void {
  const value = (id: string) => main.querySelector<HTMLInputElement | HTMLSelectElement>(`#${id}`);
  value("run")?.addEventListener("change", (e) => go({ run: (e.target as HTMLSelectElement).value || null, vs: null }));
  value("vs")?.addEventListener("change", (e) => go({ vs: (e.target as HTMLSelectElement).value || null }));
  value("threshold")?.addEventListener("change", (e) => {
    const v = Number((e.target as HTMLInputElement).value);
    if (v >= 0) go({ threshold: v });
  });
}
