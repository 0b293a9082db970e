import { legend, MARK_COLORS, mountDiffLists, summaryTable } from "./compare-panels.js";
import { sideBySideSvg } from "./compare-svg.js";
import { summaryRows } from "./diff-summary.js";
import { escapeHtml, ms } from "./format.js";
import { GraphCanvas } from "./graph-canvas.js";
import { DEFAULT_THRESHOLD_MS, diffGraphs, diffMarks, siteWarning, type GraphDiff } from "./graph-diff.js";
import { buildScene } from "./graph-scene.js";
import { sceneSvg } from "./graph-svg.js";
import { interact, type ViewHandlers } from "./graph-view.js";
import { loadLayout, loadSite, type SiteData } from "./site-data.js";
import { go, type ViewState } from "./state.js";

type SideName = "a" | "b";

/** One of the two graphs on screen. */
interface Side {
  site: SiteData;
  canvas: GraphCanvas;
  view: ReturnType<typeof interact>;
}

/** Kept while the user moves between views, like the graph view's choices. */
let thresholdMs = DEFAULT_THRESHOLD_MS;
/** The pair on screen, so export reaches it without a redraw. */
let current: Record<SideName, Side> | null = null;

/** Both graphs with their marks as one SVG, or null when the compare view is not on screen. */
export function compareSvg(): SVGSVGElement | null {
  if (!current?.a.canvas.canvas.isConnected) return null;
  return sideBySideSvg((["a", "b"] as const).map((s) => ({ title: `${s.toUpperCase()}: ${current![s].site.file}`, svg: sceneSvg(current![s].canvas.scene, current![s].canvas.emphasis) })));
}

/** Graph A (`site`) and graph B (`other`) side by side, their differences listed and outlined in both. */
export async function renderCompare(main: HTMLElement, state: ViewState, on: ViewHandlers): Promise<void> {
  current = null;
  if (!state.site || !state.other) throw new Error("The compare view needs two graphs: #view=compare&site=<graph A>&other=<graph B>, e.g. ticked in the index.");
  main.innerHTML = '<p class="note" id="compare-loading">loading both graphs…</p>';
  const loading = main.querySelector("#compare-loading")!;
  const files = [state.site, state.other];
  // The server lays out while the graphs download, rather than after. Ungrouped: differences are marked node by node.
  const ungrouped = { collapse: "none", except: new Set<string>() } as const;
  const [sites, layouts] = await Promise.all([Promise.all(files.map(loadSite)), Promise.all(files.map((f) => loadLayout(f, state.rankdir, false, ungrouped)))]);
  if (!loading.isConnected) return;
  const [a, b] = sites as [SiteData, SiteData];
  const warning = siteWarning(a.graph, b.graph);
  main.innerHTML = `<div class="toolbar"><button type="button" id="swap">swap A and B</button><button type="button" id="rankdir">${state.rankdir === "LR" ? "top to bottom" : "left to right"}</button><button type="button" id="fit">fit</button>
<label>timing threshold <input id="threshold" type="number" min="0" step="10" style="width:5em" value="${thresholdMs}"> ms</label>
<span class="note" id="compare-selection">click a node or a listed difference to find it in both graphs</span></div>
${warning ? `<div class="warning-box" id="compare-warning">${escapeHtml(warning)}</div>` : ""}
<div class="compare-top">${summaryTable(summaryRows(a.graph, b.graph))}<div id="compare-legend"></div></div>
<div class="compare-pair">${sideHtml("a", a)}${sideHtml("b", b)}</div>
<div class="compare-lists" id="compare-lists"></div>`;
  let diff: GraphDiff;
  let bToA = new Map<string, string>();
  const sides = {} as Record<SideName, Side>;
  const pick = (ids: Record<SideName, string | null>, centre: SideName[]): void => {
    for (const s of ["a", "b"] as const) {
      const side = sides[s];
      side.canvas.emphasize({ selected: ids[s] });
      const n = side.canvas.scene.nodes.find((x) => x.id === ids[s]);
      if (n && centre.includes(s)) side.view.centre(n.x, n.y);
      else side.view.schedule();
    }
    main.querySelector("#compare-selection")!.textContent = describe(ids, sides);
  };
  const clicked = (s: SideName) => (id: string) =>
    pick(s === "a" ? { a: id, b: diff.aToB.get(id) ?? null } : { a: bToA.get(id) ?? null, b: id }, [s === "a" ? "b" : "a"]);
  for (const [s, site, layout] of [["a", a, layouts[0]!], ["b", b, layouts[1]!]] as const) {
    const el = main.querySelector<HTMLCanvasElement>(`#compare-${s}`)!;
    const scene = buildScene(layout, site.graph, []);
    const canvas = new GraphCanvas(el, scene, { shown: null, selected: null });
    sides[s] = { site, canvas, view: interact(el, canvas, layout, [], site, { ...on, select: clicked(s) }, () => undefined) };
  }
  const apply = (): void => {
    diff = diffGraphs(a.graph, b.graph, thresholdMs);
    bToA = new Map([...diff.aToB].map(([ida, idb]) => [idb, ida]));
    for (const s of ["a", "b"] as const) {
      const marks = new Map([...diffMarks(diff, s)].map(([id, m]) => [id, MARK_COLORS[m]]));
      sides[s].canvas.emphasize({ marks });
      sides[s].view.schedule();
    }
    main.querySelector("#compare-legend")!.innerHTML = legend(thresholdMs);
    mountDiffLists(main.querySelector("#compare-lists")!, diff, (ida, idb) => pick({ a: ida, b: idb }, ["a", "b"]));
  };
  apply();
  current = sides;
  main.querySelector("#swap")!.addEventListener("click", () => go({ view: "compare", site: b.file, other: a.file }));
  main.querySelector("#rankdir")!.addEventListener("click", () => on.setRankdir(state.rankdir === "LR" ? "TB" : "LR"));
  main.querySelector("#fit")!.addEventListener("click", () => Object.values(sides).forEach((s) => s.view.fit()));
  main.querySelector<HTMLInputElement>("#threshold")!.addEventListener("change", (e) => {
    const v = Number((e.target as HTMLInputElement).value);
    if (!Number.isFinite(v) || v < 0) return;
    thresholdMs = v;
    apply();
  });
  for (const s of Object.values(sides)) {
    s.view.fit();
    s.view.drawNow();
    s.canvas.canvas.dataset.drawn = "1";
  }
}

function sideHtml(s: SideName, site: SiteData): string {
  return `<div class="compare-side"><h3>${s.toUpperCase()}: ${escapeHtml(site.file)} <span class="note">${escapeHtml(site.graph.source.url)}</span></h3><canvas class="canvas graph-canvas" id="compare-${s}"></canvas></div>`;
}

/** The selection in words: how the activity's timing moved, or that one graph lacks it. */
function describe(ids: Record<SideName, string | null>, sides: Record<SideName, Side>): string {
  const [na, nb] = [ids.a && sides.a.site.byId.get(ids.a), ids.b && sides.b.site.byId.get(ids.b)];
  if (na && nb) return `${na.label.split("\n")[0]}: start ${ms(na.start)} → ${ms(nb.start)}, duration ${ms(na.duration)} → ${ms(nb.duration)}`;
  const only = na || nb;
  return only ? `${only.label.split("\n")[0]}: only in ${na ? "A" : "B"}` : "";
}
