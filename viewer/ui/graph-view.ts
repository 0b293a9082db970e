import type { Layout } from "../src/server/api.js";
import { GraphCanvas, READABLE_SCALE } from "./graph-canvas.js";
import { GraphOverview } from "./graph-overview.js";
import { collapsibleGroups } from "./graph-groups.js";
import { graphLegend } from "./graph-legend.js";
import { buildScene, type Group } from "./graph-scene.js";
import { sceneSvg } from "./graph-svg.js";
import { matches, mountFilter } from "./node-filter.js";
import { nodeSummary } from "./node-details.js";
import { mountGroupControls, groupChoice, toggleGroup } from "./group-controls.js";
import { loadLayout, type SiteData } from "./site-data.js";
import type { ViewState } from "./state.js";
import type { Tooltip } from "./tooltip.js";

export interface ViewHandlers {
  select(id: string): void;
  setRankdir(r: "LR" | "TB"): void;
  tooltip: Tooltip;
}

let showExcluded = false;
/** A gesture has paused when no zoom or pan event came for this long. */
const SETTLE_MS = 120;
/** Collapsed group ids, kept while the user moves between sites and views. */
const collapsed = new Set<string>();
/** The graph on screen, so selection and export reach it without a redraw. */
let current: { canvas: GraphCanvas; schedule: () => void } | null = null;

export function highlightNode(id: string | null): void {
  if (!current) return;
  current.canvas.emphasize({ selected: id });
  current.schedule();
}

/** The drawn graph as a standalone SVG, or null when no graph is on screen. */
export function graphSvg(): SVGSVGElement | null {
  return current?.canvas.canvas.isConnected ? sceneSvg(current.canvas.scene, current.canvas.emphasis) : null;
}

/** The dot layout on a canvas: frames as boxes, critical path thick, inferred edges dashed. */
export async function renderGraph(main: HTMLElement, site: SiteData, state: ViewState, on: ViewHandlers): Promise<void> {
  current = null;
  main.innerHTML = `<div class="toolbar"><button type="button" id="rankdir">${state.rankdir === "LR" ? "top to bottom" : "left to right"}</button><button type="button" id="fit">fit</button><label><input type="checkbox" id="show-excluded"${showExcluded ? " checked" : ""}> excluded nodes</label><label><input type="checkbox" id="collapse-frames"> collapse subframes</label><label><input type="checkbox" id="collapse-timers"> collapse timer chains</label><button type="button" id="expand-groups">expand groups</button><button type="button" id="collapse-groups">group like nodes</button><span class="note" id="layout-note">laying out with dot…</span></div>`;
  const bar = main.querySelector<HTMLElement>(".toolbar")!;
  bar.querySelector("#rankdir")!.addEventListener("click", () => on.setRankdir(state.rankdir === "LR" ? "TB" : "LR"));
  const redraw = (): void => void renderGraph(main, site, state, on);
  bar.querySelector<HTMLInputElement>("#show-excluded")!.addEventListener("change", (e) => {
    showExcluded = (e.target as HTMLInputElement).checked;
    redraw();
  });
  const layout = await loadLayout(site.file, state.rankdir, showExcluded, groupChoice(site.file));
  if (!bar.isConnected) return;
  // Marks let benchmarks and DevTools split the time to a drawn graph into layout and drawing.
  performance.mark("pagepath:layout-loaded");
  const groups = collapsibleGroups(site.graph, layout);
  mountCollapseToggles(bar, groups, redraw);
  mountGroupControls(bar, site.file, layout.nodeGroups, redraw);
  bar.after(graphLegend(site, layout));
  const scene = buildScene(layout, site.graph, groups.filter((g) => collapsed.has(g.id)));
  const el = document.createElement("canvas");
  el.className = "canvas graph-canvas";
  main.append(el);
  const canvas = new GraphCanvas(el, scene, { shown: null, selected: state.node });
  const view = interact(el, canvas, layout, groups, site, on, redraw);
  current = { canvas, schedule: view.schedule };
  bar.querySelector("#fit")!.addEventListener("click", view.fit);
  mountFilter(bar, site, (f) => {
    const shown = new Set(site.graph.nodes.filter((n) => matches(n, f)).map((n) => n.id));
    canvas.emphasize({ shown });
    view.schedule();
  });
  const straight = scene.edges.filter((e) => !e.routed).length;
  const grouped = layout.nodeGroups.filter((g) => g.collapsed);
  const hidden = grouped.reduce((sum, g) => sum + g.members.length, 0);
  bar.querySelector("#layout-note")!.textContent = `${layout.nodes.length} nodes${grouped.length ? ` (${hidden} in ${grouped.length} groups)` : ""}, ${layout.engine.name === "dot" ? "dot" : "layered layout (too many nodes for dot)"} ${layout.engine.ms} ms${straight ? `, ${straight} edges drawn straight` : ""}${layout.engine.routedEdges === "depth-tree" ? " (dot routed a depth tree)" : ""}`;
  if (!view.open()) {
    const overview = new GraphOverview(main, scene, view.panTo);
    view.onView((t) => overview.show(t, el.clientWidth, el.clientHeight));
  }
  view.drawNow();
  // Tests and benchmarks count what is drawn, which grouping changes, without reading pixels.
  el.dataset.nodes = String(scene.nodes.length);
  el.dataset.nodeGroups = String(scene.nodes.filter((n) => n.grouped).length);
  el.dataset.drawn = "1";
  performance.mark("pagepath:graph-drawn");
}

/** Zoom, pan, hover and click on the canvas; redraws at most once per animation frame. */
export function interact(el: HTMLCanvasElement, canvas: GraphCanvas, layout: Layout, groups: Group[], site: SiteData, on: ViewHandlers, redraw: () => void) {
  let t = d3.zoomIdentity;
  let [pendingFull, pendingMove, settle, draws] = [0, 0, 0, 0];
  let viewShown: (t: d3.ZoomTransform) => void = () => undefined;
  const counted = (): void => {
    el.dataset.transform = `${t.x},${t.y},${t.k}`;
    el.dataset.draws = String(++draws);
    viewShown(t);
  };
  const drawNow = (): void => {
    cancelAnimationFrame(pendingMove);
    cancelAnimationFrame(pendingFull);
    clearTimeout(settle);
    [pendingFull, pendingMove] = [0, 0];
    el.dataset.fullDrawMs = canvas.draw(t).toFixed(1);
    counted();
  };
  const schedule = (): void => {
    pendingFull ||= requestAnimationFrame(drawNow);
  };
  /** During a gesture: move the last drawing each frame, draw in full once it pauses. */
  const moved = (): void => {
    if (!pendingFull)
      pendingMove ||= requestAnimationFrame(() => {
        pendingMove = 0;
        canvas.drawMoving(t);
        counted();
      });
    clearTimeout(settle);
    settle = window.setTimeout(schedule, SETTLE_MS);
  };
  const resize = (): void => {
    const dpr = window.devicePixelRatio || 1;
    el.width = Math.max(1, Math.round(el.clientWidth * dpr));
    el.height = Math.max(1, Math.round(el.clientHeight * dpr));
    schedule();
  };
  resize();
  new ResizeObserver(resize).observe(el);
  const zoom = d3
    .zoom<HTMLCanvasElement, unknown>()
    .scaleExtent([0.01, 8])
    .on("zoom", (e: d3.D3ZoomEvent<HTMLCanvasElement, unknown>) => {
      t = e.transform;
      // Programmatic moves (fit, first view) have no source event and are drawn in full at once.
      if (e.sourceEvent) moved();
      else schedule();
    });
  const sel = d3.select(el).call(zoom).on("dblclick.zoom", null);
  const fitScale = (): number => Math.min(el.clientWidth / (layout.width + 20), el.clientHeight / (layout.height + 20), 2);
  const fit = (): void => {
    const k = fitScale();
    sel.call(zoom.transform, d3.zoomIdentity.translate((el.clientWidth - layout.width * k) / 2, (el.clientHeight - layout.height * k) / 2).scale(k));
  };
  /**
   * The first view: the whole graph when its labels can be read so; else zoomed in until they can
   * (at most to full size, fitting the graph's short side where that is enough), from the side
   * where the graph starts. Whether the whole graph is in view.
   */
  const open = (): boolean => {
    if (fitScale() >= READABLE_SCALE) {
      fit();
      return true;
    }
    const k = Math.min(1, Math.max(el.clientWidth / (layout.width + 20), el.clientHeight / (layout.height + 20), READABLE_SCALE));
    const start = (view: number, size: number) => (size * k + 20 <= view ? (view - size * k) / 2 : 10);
    const x = start(el.clientWidth, layout.width);
    const y = layout.height * k + 20 <= el.clientHeight ? start(el.clientHeight, layout.height) : el.clientHeight / 2 - (layout.height * k) / 2;
    sel.call(zoom.transform, d3.zoomIdentity.translate(x, y).scale(k));
    return false;
  };
  /** Brings a point (layout coordinates) to the middle at the present zoom. */
  const panTo = (x: number, y: number): void => {
    sel.call(zoom.transform, d3.zoomIdentity.translate(el.clientWidth / 2 - x * t.k, el.clientHeight / 2 - y * t.k).scale(t.k));
  };
  /** Brings a point (layout coordinates) to the middle, zoomed in at least far enough to read labels. */
  const centre = (x: number, y: number): void => {
    const k = Math.max(t.k, 1);
    sel.call(zoom.transform, d3.zoomIdentity.translate(el.clientWidth / 2 - x * k, el.clientHeight / 2 - y * k).scale(k));
  };
  const nodeAt = (e: MouseEvent) => {
    const [x, y] = t.invert(d3.pointer(e, el));
    return canvas.nodeAt(x, y);
  };
  sel.on("mousemove.hover", (e: MouseEvent) => {
    const n = nodeAt(e);
    el.style.cursor = n ? "pointer" : "grab";
    if (!n) return on.tooltip.hide();
    const g = n.members.length === 1 ? site.byId.get(n.id) : undefined;
    on.tooltip.show(e, g ? nodeSummary(g, site) : `${n.label}\n${n.members.length} nodes; click to expand`);
  });
  sel.on("mouseleave.hover", () => on.tooltip.hide());
  sel.on("click.select", (e: MouseEvent) => {
    const n = nodeAt(e);
    if (!n) return;
    if (groups.some((g) => g.id === n.id)) {
      collapsed.delete(n.id);
      return redraw();
    }
    if (n.grouped) {
      toggleGroup(site.file, n.id);
      return redraw();
    }
    on.select(n.id);
  });
  return { fit, open, panTo, schedule, drawNow, centre, onView: (show: (t: d3.ZoomTransform) => void) => void (viewShown = show) };
}

function mountCollapseToggles(bar: HTMLElement, groups: Group[], redraw: () => void): void {
  for (const [box, prefix] of [["#collapse-frames", "collapsed:frame:"], ["#collapse-timers", "collapsed:timers:"]] as const) {
    const input = bar.querySelector<HTMLInputElement>(box)!;
    const mine = groups.filter((g) => g.id.startsWith(prefix));
    input.disabled = mine.length === 0;
    input.checked = mine.length > 0 && mine.every((g) => collapsed.has(g.id));
    input.parentElement!.title = `${mine.length} to collapse`;
    input.addEventListener("change", () => {
      for (const g of mine) (input.checked ? collapsed.add(g.id) : collapsed.delete(g.id));
      redraw();
    });
  }
}
