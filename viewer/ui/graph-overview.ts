import type { Scene } from "./graph-scene.js";

type Transform = { x: number; y: number; k: number };

/** The overview's width on screen; its height follows the graph's shape, within these bounds. */
const WIDTH = 280;
const MIN_HEIGHT = 24;
const MAX_HEIGHT = 180;

/**
 * The whole graph in miniature in a corner of the view, the part on screen outlined, as map viewers
 * and code maps show it: a graph too wide to read at fit (a page that alternates parsing and
 * scripts a hundred times is a strip) opens zoomed in where labels read, and this keeps its shape in
 * sight. Click or drag in it to bring that part of the graph to the middle of the view.
 */
export class GraphOverview {
  readonly canvas = document.createElement("canvas");
  private readonly base = document.createElement("canvas");
  private readonly scale: number;
  private readonly height: number;

  constructor(host: HTMLElement, scene: Scene, go: (x: number, y: number) => void) {
    this.height = Math.round(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, (WIDTH * scene.height) / Math.max(1, scene.width))));
    this.scale = Math.min(WIDTH / Math.max(1, scene.width), this.height / Math.max(1, scene.height));
    const dpr = window.devicePixelRatio || 1;
    for (const c of [this.canvas, this.base]) {
      c.width = Math.round(WIDTH * dpr);
      c.height = Math.round(this.height * dpr);
    }
    this.canvas.className = "graph-overview";
    this.canvas.style.width = `${WIDTH}px`;
    this.canvas.style.height = `${this.height}px`;
    this.drawBase(scene, dpr);
    const goTo = (e: PointerEvent): void => {
      const r = this.canvas.getBoundingClientRect();
      go((e.clientX - r.left) / this.scale, (e.clientY - r.top) / this.scale);
    };
    this.canvas.addEventListener("pointerdown", (e) => {
      this.canvas.setPointerCapture(e.pointerId);
      goTo(e);
    });
    this.canvas.addEventListener("pointermove", (e) => {
      if (e.buttons) goTo(e);
    });
    host.append(this.canvas);
  }

  /** The overview with the view's part of the graph outlined. */
  show(t: Transform, viewWidth: number, viewHeight: number): void {
    const ctx = this.canvas.getContext("2d")!;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(this.base, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const s = this.scale;
    const [x, y] = [(-t.x / t.k) * s, (-t.y / t.k) * s];
    ctx.strokeStyle = "#d01c1c";
    ctx.lineWidth = 1.5;
    // At least a few pixels, so the outline stays findable when the view is a sliver of a long graph.
    ctx.strokeRect(x, y, Math.max(4, (viewWidth / t.k) * s), Math.max(4, (viewHeight / t.k) * s));
    const view = { x0: x, y0: y, x1: x + (viewWidth / t.k) * s, y1: y + (viewHeight / t.k) * s };
    this.canvas.dataset.view = [view.x0, view.y0, view.x1, view.y1].map((v) => v.toFixed(1)).join(",");
  }

  /** Nodes as boxes of at least a pixel, the critical path's darker: the graph's shape, once. */
  private drawBase(scene: Scene, dpr: number): void {
    const ctx = this.base.getContext("2d")!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "rgba(255,255,255,0.92)";
    ctx.fillRect(0, 0, WIDTH, this.height);
    const s = this.scale;
    for (const n of scene.nodes) {
      ctx.fillStyle = n.critical ? "#222222" : n.color;
      const [w, h] = [Math.max(1, n.width * s), Math.max(1, n.height * s)];
      ctx.fillRect(n.x * s - w / 2, n.y * s - h / 2, w, h);
    }
    ctx.strokeStyle = "#999999";
    ctx.strokeRect(0.5, 0.5, WIDTH - 1, this.height - 1);
  }
}
