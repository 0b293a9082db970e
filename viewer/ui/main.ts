import { compareSvg, renderCompare } from "./compare-view.js";
import { download, renderPng, serialiseView } from "./export-view.js";
import { escapeHtml } from "./format.js";
import { graphSvg, highlightNode, renderGraph, type ViewHandlers } from "./graph-view.js";
import { renderIndex } from "./index-view.js";
import { showDetails } from "./node-details.js";
import { renderResults } from "./results-view.js";
import { groupChoice } from "./group-controls.js";
import { loadLayout, loadSite, type SiteData } from "./site-data.js";
import { go, readState, stateHash } from "./state.js";
import { renderTimeline } from "./timeline-view.js";
import { Tooltip } from "./tooltip.js";

const main = document.getElementById("main")!;
const details = document.getElementById("details")!;
const handlers: ViewHandlers = {
  select: (id) => go({ node: id || null }),
  setRankdir: (rankdir) => go({ rankdir }),
  tooltip: new Tooltip(document.getElementById("tooltip")!),
};
let site: Promise<SiteData> | null = null;
let siteFile: string | null = null;
/** What is drawn now, so that selecting a node only updates the panel. */
let drawnKey = "";

async function render(): Promise<void> {
  const state = readState();
  updateNav(state.view, state.site);
  handlers.tooltip.hide();
  if (state.view === "results") {
    details.hidden = true;
    drawnKey = "results";
    return renderResults(main, state.results);
  }
  if (state.view === "compare") {
    details.hidden = true;
    drawnKey = "compare";
    document.getElementById("site-title")!.textContent = `${state.site ?? "?"} ↔ ${state.other ?? "?"}`;
    return renderCompare(main, state, handlers);
  }
  if (state.view === "index" || !state.site) {
    details.hidden = true;
    drawnKey = "index";
    return renderIndex(main);
  }
  if (state.site !== siteFile) {
    siteFile = state.site;
    site = loadSite(state.site);
  }
  // The server lays out while the graph downloads, rather than after: for big graphs both take seconds.
  if (state.view === "graph") void loadLayout(state.site, state.rankdir, false, groupChoice(state.site)).catch(() => undefined);
  const data = await site!;
  document.getElementById("site-title")!.textContent = data.graph.source.url;
  const key = stateHash({ ...state, node: null });
  if (key !== drawnKey || state.view === "timeline") {
    drawnKey = key;
    main.innerHTML = '<p class="note">loading…</p>';
    await (state.view === "graph" ? renderGraph : renderTimeline)(main, data, state, handlers);
  } else {
    highlightNode(state.node);
  }
  const node = state.node ? data.byId.get(state.node) : undefined;
  if (node) showDetails(details, node, data, handlers.select);
  else details.hidden = true;
}

function updateNav(view: string, site: string | null): void {
  for (const v of ["index", "graph", "timeline", "results"]) {
    const a = document.getElementById(`nav-${v}`)!;
    a.classList.toggle("current", v === view);
    if (v === "graph" || v === "timeline") {
      a.classList.toggle("disabled", !site);
      if (site) a.setAttribute("href", stateHash({ ...readState(), view: v as "graph" | "timeline" }));
    }
  }
  if (!site || view === "index" || view === "results") document.getElementById("site-title")!.textContent = "";
}

function showError(e: unknown): void {
  main.innerHTML = `<div class="error-box">${escapeHtml((e as Error).message)}</div>`;
  drawnKey = "";
}

function exported(kind: "svg" | "png"): void {
  const svg = main.querySelector<SVGSVGElement>("svg.exportable") ?? graphSvg() ?? compareSvg();
  if (!svg) return;
  const s = readState();
  const name =
    s.view === "results"
      ? `${(s.results.experiment ?? "experiments").replace(/^.*\//, "").replace(/\.plan\.json$/, "")}-${s.results.tab}.${kind}`
      : `${(s.site ?? "view").replace(/^.*\//, "").replace(/\.json$/, "")}-${s.view}.${kind}`;
  const text = serialiseView(svg);
  if (kind === "svg") return download(name, new Blob([text], { type: "image/svg+xml" }));
  const size = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  renderPng(text, Number(size.getAttribute("width")) || svg.clientWidth, Number(size.getAttribute("height")) || svg.clientHeight)
    .then((blob) => download(name, blob))
    .catch(showError);
}

document.getElementById("export-svg")!.addEventListener("click", () => exported("svg"));
document.getElementById("export-png")!.addEventListener("click", () => exported("png"));
window.addEventListener("hashchange", () => render().catch(showError));
render().catch(showError);
