import { visibleSegment } from "./clip-segment.js";
import type { Scene, SceneEdge, SceneNode } from "./graph-scene.js";

/** What changes between frames without changing the scene. */
export interface Emphasis {
  /** Nodes the filter keeps; the rest are faded. Null: no filter. */
  shown: Set<string> | null;
  selected: string | null;
  /** Node id to the colour of a thick outline around it (the compare view marks differences so). */
  marks?: Map<string, string>;
}

/** Labels below this on-screen font size are unreadable, so zoomed-out frames skip them. */
const MIN_LABEL_PX = 5;
/** Node labels are set in 10-point type: below this zoom they are not drawn. */
export const READABLE_SCALE = MIN_LABEL_PX / 10;
/**
 * Frame and group labels never shrink below this on screen: there are few of them, and at fit
 * they are what tells the reader the graph's structure when node labels are too small to draw.
 */
const STRUCTURE_LABEL_PX = 11;
/** How far each outline of a group's stack stands behind the one in front, in layout points. */
const STACK_STEP = 3;
const FONT = "Helvetica, Arial, sans-serif";
const ARROW = 7;
/** How far a mark's outline stands off the node's own, so both stay visible. */
const MARK_GAP = 4;
/** Below this zoom an arrowhead is under two pixels and a dash under one. */
const MIN_DETAIL_SCALE = 0.3;

type Transform = { x: number; y: number; k: number };

/**
 * Draws a scene on a canvas. SVG with one element per node and edge managed about 3 frames per second
 * when zooming a 2,300-node graph in headless Chromium; a canvas redraws batched paths instead: the
 * geometry is built once into one Path2D per style, each frame only sets the transform and strokes them.
 * While the user zooms or pans, frames move a snapshot of the last full drawing (as map viewers and
 * Cytoscape's textureOnViewport do) and the full drawing follows when the movement pauses.
 */
export class GraphCanvas {
  private batches: Batch[] = [];
  private readonly ctx: CanvasRenderingContext2D;
  private snapshot: { image: HTMLCanvasElement; t: Transform } | null = null;

  constructor(
    readonly canvas: HTMLCanvasElement,
    readonly scene: Scene,
    private shownEmphasis: Emphasis,
  ) {
    this.ctx = canvas.getContext("2d", { alpha: false })!;
    this.rebuild();
  }

  /** What is emphasised now, e.g. for an SVG export of the same view. */
  get emphasis(): Emphasis {
    return this.shownEmphasis;
  }

  /** Changes part of the emphasis (filter, selection, marks); drawn at the next draw. */
  emphasize(change: Partial<Emphasis>): void {
    this.shownEmphasis = { ...this.shownEmphasis, ...change };
    this.rebuild();
  }

  /** The node under a point in layout coordinates; the topmost when boxes overlap. */
  nodeAt(x: number, y: number): SceneNode | null {
    for (let i = this.scene.nodes.length - 1; i >= 0; i--) {
      const n = this.scene.nodes[i]!;
      if (Math.abs(x - n.x) <= n.width / 2 && Math.abs(y - n.y) <= n.height / 2) return n;
    }
    return null;
  }

  /** The full drawing; returns how long it took (ms). */
  draw(t: Transform): number {
    const started = performance.now();
    const { ctx, canvas } = this;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(t.k * dpr, 0, 0, t.k * dpr, t.x * dpr, t.y * dpr);
    this.drawClusters(t.k);
    // Zoomed out, dashes and arrowheads are below a pixel: skipping them halves the drawing time.
    const detailed = t.k >= MIN_DETAIL_SCALE;
    const [w, h] = [canvas.width / dpr, canvas.height / dpr];
    const view = { x0: -t.x / t.k, y0: -t.y / t.k, x1: (w - t.x) / t.k, y1: (h - t.y) / t.k };
    for (const { style, path: whole, lines } of this.batches) {
      if (style.arrow && !detailed) continue;
      const path = lines.length ? clipped(whole, lines, view, style.dash) : whole;
      ctx.globalAlpha = style.alpha;
      ctx.setLineDash(detailed ? style.dash : []);
      ctx.lineWidth = Math.max(style.width, (style.minPx ?? 0) / t.k);
      if (style.fill) {
        ctx.fillStyle = style.fill;
        ctx.fill(path);
      }
      if (style.stroke) {
        ctx.strokeStyle = style.stroke;
        ctx.stroke(path);
      }
    }
    ctx.globalAlpha = 1;
    ctx.setLineDash([]);
    this.drawLabels(t, w, h);
    this.keepSnapshot(t);
    return performance.now() - started;
  }

  /** A frame during movement: the last full drawing, moved and scaled to the new transform. */
  drawMoving(t: Transform): void {
    const s = this.snapshot;
    if (!s || s.image.width !== this.canvas.width || s.image.height !== this.canvas.height) {
      this.draw(t);
      return;
    }
    const { ctx } = this;
    const dpr = window.devicePixelRatio || 1;
    const scale = t.k / s.t.k;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.drawImage(s.image, (t.x - s.t.x * scale) * dpr, (t.y - s.t.y * scale) * dpr, s.image.width * scale, s.image.height * scale);
  }

  private keepSnapshot(t: Transform): void {
    const image = this.snapshot?.image ?? document.createElement("canvas");
    image.width = this.canvas.width;
    image.height = this.canvas.height;
    image.getContext("2d")!.drawImage(this.canvas, 0, 0);
    this.snapshot = { image, t: { ...t } };
  }

  private drawClusters(k: number): void {
    const ctx = this.ctx;
    ctx.lineWidth = 1;
    for (const c of this.scene.clusters) {
      ctx.beginPath();
      ctx.roundRect(c.x, c.y, c.width, c.height, 6);
      ctx.fillStyle = c.fill;
      ctx.fill();
      ctx.strokeStyle = "#999999";
      ctx.stroke();
      const size = Math.max(14, STRUCTURE_LABEL_PX / k);
      ctx.fillStyle = "#000000";
      ctx.font = `${size}px ${FONT}`;
      ctx.textAlign = "center";
      ctx.fillText(c.label, c.x + c.width / 2, c.y + size + 2 / k);
    }
  }

  /**
   * Only the labels of nodes on screen: at label-readable zoom, few nodes are. Zoomed out, only groups of
   * like nodes keep theirs, at a readable size on a white halo since they outgrow their boxes; the
   * biggest groups first, kept on screen, moved a line down or up rather than over another label.
   */
  private drawLabels(t: Transform, w: number, h: number): void {
    const ctx = this.ctx;
    const [x0, y0, x1, y1] = [-t.x / t.k, -t.y / t.k, (w - t.x) / t.k, (h - t.y) / t.k];
    const all = t.k >= READABLE_SCALE;
    const groupSize = Math.max(10, STRUCTURE_LABEL_PX / t.k);
    const enlarged = groupSize > 10;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    const shown = this.emphasis.shown;
    const taken: { l: number; r: number; y: number }[] = [];
    const nodes = this.scene.nodes.filter((n) => (all || n.grouped) && n.x + n.width / 2 >= x0 && n.x - n.width / 2 <= x1 && n.y + n.height / 2 >= y0 && n.y - n.height / 2 <= y1);
    if (enlarged) nodes.sort((a, b) => Number(Boolean(b.grouped)) - Number(Boolean(a.grouped)) || b.members.length - a.members.length);
    for (const n of nodes) {
      let [x, y] = [n.x, n.y];
      if (n.grouped && enlarged) {
        ctx.font = `${groupSize}px ${FONT}`;
        const half = ctx.measureText(n.label).width / 2;
        x = Math.min(Math.max(x, x0 + half), x1 - half);
        const free = [0, 1.2, -1.2].map((d) => n.y + d * groupSize).find((y) => !taken.some((o) => o.l < x + half && x - half < o.r && o.y - groupSize < y && y < o.y + groupSize));
        if (free === undefined) continue;
        y = free;
        taken.push({ l: x - half, r: x + half, y });
        ctx.strokeStyle = "#ffffff";
        ctx.lineWidth = 3 / t.k;
        ctx.globalAlpha = !shown || n.members.some((m) => shown.has(m)) ? 1 : 0.12;
        ctx.strokeText(n.label, x, y);
      } else {
        ctx.font = `10px ${FONT}`;
      }
      ctx.globalAlpha = !shown || n.members.some((m) => shown.has(m)) ? 1 : 0.12;
      ctx.fillStyle = n.color;
      ctx.fillText(n.label, x, y);
    }
    ctx.globalAlpha = 1;
    ctx.textBaseline = "alphabetic";
  }

  /** One Path2D per distinct style, in the order edges, node fills, node outlines. */
  private rebuild(): void {
    const batches = new Map<string, Batch>();
    const batch = (style: Style): Batch => {
      const key = JSON.stringify(style);
      let b = batches.get(key);
      if (!b) batches.set(key, (b = { style, path: new Path2D(), lines: [] }));
      return b;
    };
    const add = (style: Style, draw: (p: Path2D) => void): void => draw(batch(style).path);
    const shown = this.emphasis.shown;
    const visible = (ids: string[]): boolean => !shown || ids.some((id) => shown.has(id));
    const members = new Map(this.scene.nodes.map((n) => [n.id, n.members]));
    for (const e of this.scene.edges) {
      const alpha = visible(members.get(e.from)!) || visible(members.get(e.to)!) ? 1 : 0.08;
      const color = e.routed ? "#333333" : "#888888";
      // Zoomed out to fit, lines keep a least width on screen, the critical path's the widest, so the
      // graph's shape and its critical path still show when the boxes are a few pixels wide.
      const style = { stroke: color, width: e.critical ? 3 : 1, minPx: e.critical ? 2 : 0.5, dash: e.inferred ? [5, 3] : [], alpha };
      const line = e.inferred ? straightLine(e.path) : null;
      if (line) batch(style).lines.push(line);
      else add(style, (p) => p.addPath(new Path2D(e.path)));
      add({ fill: color, width: 1, dash: [], alpha, arrow: true }, (p) => arrowHead(p, e));
    }
    for (const n of this.scene.nodes) {
      const alpha = visible(n.members) ? 1 : 0.12;
      add({ fill: n.id === this.emphasis.selected ? "#fff3a0" : "#ffffff", width: 1, dash: [], alpha }, (p) => outline(p, n));
    }
    for (const n of this.scene.nodes) {
      const alpha = visible(n.members) ? 1 : 0.12;
      add({ stroke: n.color, width: n.critical ? 3 : 1, minPx: n.critical ? 2 : 1, dash: n.excluded ? [2, 2] : [], alpha }, (p) => {
        outline(p, n);
        if (n.grouped) for (const step of [1, 2]) stackEdge(p, n, step * STACK_STEP);
      });
      const mark = this.emphasis.marks?.get(n.id);
      // Marks stay a few pixels wide when zoomed out: they are how a difference is found in a big graph.
      if (mark) add({ stroke: mark, width: 5, minPx: 3, dash: [], alpha }, (p) => outline(p, markBox(n)));
    }
    this.batches = [...batches.values()];
  }
}

/** Paths drawn in one style; dashed straight lines apart, cut to the screen at each drawing. */
interface Batch {
  style: Style;
  path: Path2D;
  lines: [number, number, number, number][];
}

/** The batch's path with its straight lines cut to what is on screen. */
function clipped(whole: Path2D, lines: Batch["lines"], view: Parameters<typeof visibleSegment>[4], dash: number[]): Path2D {
  const p = new Path2D(whole);
  const period = dash.reduce((a, b) => a + b, 0);
  for (const [x1, y1, x2, y2] of lines) {
    const s = visibleSegment(x1, y1, x2, y2, view, period);
    if (!s) continue;
    p.moveTo(s[0], s[1]);
    p.lineTo(s[2], s[3]);
  }
  return p;
}

/** The end points of a one-segment path ("M x,y L x,y"), or null for anything else. */
function straightLine(path: string): [number, number, number, number] | null {
  const m = /^M(-?[\d.e-]+),(-?[\d.e-]+)L(-?[\d.e-]+),(-?[\d.e-]+)$/.exec(path);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] : null;
}

interface Style {
  arrow?: boolean;
  /** Least on-screen line width, px. */
  minPx?: number;
  fill?: string;
  stroke?: string;
  width: number;
  dash: number[];
  alpha: number;
}

function outline(p: Path2D, n: SceneNode): void {
  const [w, h] = [n.width / 2, n.height / 2];
  if (n.shape === "diamond") {
    p.moveTo(n.x, n.y - h);
    p.lineTo(n.x + w, n.y);
    p.lineTo(n.x, n.y + h);
    p.lineTo(n.x - w, n.y);
    p.closePath();
  } else {
    p.roundRect(n.x - w, n.y - h, n.width, n.height, n.shape === "octagon" ? 10 : 4);
  }
}

/** The top and right edges of an outline behind the node, offset up and right: a stack of cards. */
function stackEdge(p: Path2D, n: SceneNode, d: number): void {
  const [l, r, t, b] = [n.x - n.width / 2 + d, n.x + n.width / 2 + d, n.y - n.height / 2 - d, n.y + n.height / 2 - d];
  p.moveTo(l, t + d);
  p.lineTo(l, t);
  p.lineTo(r, t);
  p.lineTo(r, b);
  p.lineTo(r - d, b);
}

export function markBox(n: SceneNode): SceneNode {
  return { ...n, width: n.width + 2 * MARK_GAP, height: n.height + 2 * MARK_GAP };
}

function arrowHead(p: Path2D, e: SceneEdge): void {
  const [x, y] = e.tip;
  const [dx, dy] = e.dir;
  p.moveTo(x, y);
  p.lineTo(x - dx * ARROW - dy * ARROW * 0.45, y - dy * ARROW + dx * ARROW * 0.45);
  p.lineTo(x - dx * ARROW + dy * ARROW * 0.45, y - dy * ARROW - dx * ARROW * 0.45);
  // Back to the tip rather than closePath(): the batch is only filled, which closes it anyway, and
  // Chromium's closePath() grew with the path, 4.2 s for the 30,000 arrows of a 10,000-node graph.
  p.lineTo(x, y);
}
