import type { CDPSession } from "puppeteer-core";
import { withTimeout } from "./cdp-calls.js";

/**
 * Where the main document's text and images sit in the viewport after the load: what the
 * largest contentful paint's candidates are made of (W3C Largest Contentful Paint §2: an element's
 * size is its visible area). Chromium sizes a text candidate once, at its first paint, as the union
 * of the text its block had laid out then (TextPaintTimingDetector aggregates text by its nearest
 * block container), so the graph builder needs each text node apart, in document order, to tell
 * what a paint after each parse chunk would have measured.
 */
export interface PageLayout {
  /** The viewport in CSS pixels (innerWidth, innerHeight): every rect is clipped to it. */
  viewport: { width: number; height: number };
  /** Block containers that hold text, referenced by index from `texts`. */
  blocks: LayoutBlock[];
  /** Every text node under `<body>`, in document order, with its visible box. */
  texts: LayoutText[];
  /** Every `<img>` under `<body>`, in document order. */
  images: LayoutImage[];
  /** Set when the page had more text nodes than are kept (the rest are left out). */
  truncated: boolean;
}

export interface LayoutBlock {
  /** As Chromium's trace names a node: `P`, `DIV id='a' class='b c'`. */
  nodeName: string;
  /** The block's computed font, which decides the web fonts its text waits for. */
  font: { family: string; weight: string; style: string };
}

export interface LayoutText {
  /** Index into `blocks` of the nearest block container. */
  block: number;
  /** The node's `data` length and its first characters: what matches it to the document's source. */
  length: number;
  head: string;
  /** Only collapsible white space (space, tab, line breaks), which paints only between inline content. Absent in older layouts. */
  blank?: boolean;
  /** The union of the node's line boxes clipped to the viewport, `[left, top, right, bottom]`; null when none is visible (also `visibility` other than `visible`, or an `opacity: 0` ancestor). */
  rect: Rect | null;
}

export interface LayoutImage {
  nodeName: string;
  /** `currentSrc`, else `src`; null without one. */
  url: string | null;
  rect: Rect | null;
  /** Intrinsic size (`naturalWidth`, `naturalHeight`); 0 when not loaded. */
  natural: [number, number];
  /** Displayed size, unclipped (the bounding box's width and height): an upscaled image counts only its own pixels. */
  displayed: [number, number];
}

export type Rect = [number, number, number, number];

/** Kept text nodes at most: a big document's layout stays a few MB. */
export const MAX_LAYOUT_TEXTS = 20000;

/** Runs in the page: self-contained, no closures over module scope. */
function measure(maxTexts: number): PageLayout {
  const vw = innerWidth;
  const vh = innerHeight;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const union = (rects: Iterable<DOMRect>): Rect | null => {
    let u: Rect | null = null;
    for (const q of rects) {
      const x0 = Math.max(0, q.left), y0 = Math.max(0, q.top), x1 = Math.min(vw, q.right), y1 = Math.min(vh, q.bottom);
      if (x1 <= x0 || y1 <= y0) continue;
      u = u ? [Math.min(u[0], x0), Math.min(u[1], y0), Math.max(u[2], x1), Math.max(u[3], y1)] : [x0, y0, x1, y1];
    }
    return u && [round(u[0]), round(u[1]), round(u[2]), round(u[3])];
  };
  const name = (e: Element) => {
    let s = e.nodeName.toUpperCase();
    if (e.id) s += ` id='${e.id}'`;
    const cls = e.getAttribute("class");
    if (cls) s += ` class='${cls.trim().split(/\s+/).join(" ")}'`;
    return s;
  };
  // One computed style per element: a text's parent is asked about by its block, its visibility
  // and its opacity, and a big page has tens of thousands of texts.
  const styles = new Map<Element, CSSStyleDeclaration>();
  const style = (e: Element) => {
    let s = styles.get(e);
    if (!s) styles.set(e, (s = getComputedStyle(e)));
    return s;
  };
  const blocks: LayoutBlock[] = [];
  const blockIndex = new Map<Element, number>();
  const blockOf = (t: Text): number => {
    let e = t.parentElement;
    // Inline boxes (and display: contents) pass their text to the block they sit in.
    while (e && e.parentElement && /^(inline|contents|ruby)$/.test(style(e).display)) e = e.parentElement;
    const el = e ?? document.body;
    let i = blockIndex.get(el);
    if (i === undefined) {
      const s = style(el);
      i = blocks.push({ nodeName: name(el), font: { family: s.fontFamily, weight: String(s.fontWeight), style: s.fontStyle } }) - 1;
      blockIndex.set(el, i);
    }
    return i;
  };
  // Text Chromium does not paint as content: hidden, or under a fully transparent element.
  const hiddenMemo = new Map<Element, boolean>();
  const hidden = (e: Element | null): boolean => {
    if (!e) return false;
    let h = hiddenMemo.get(e);
    if (h === undefined) {
      const s = style(e);
      h = s.opacity === "0" || hidden(e.parentElement);
      hiddenMemo.set(e, h);
    }
    return h;
  };
  const invisible = (t: Text) => !t.parentElement || style(t.parentElement).visibility !== "visible" || hidden(t.parentElement);
  const texts: LayoutText[] = [];
  let truncated = false;
  if (document.body) {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
      if (texts.length >= maxTexts) {
        truncated = true;
        break;
      }
      range.selectNodeContents(n);
      texts.push({ block: blockOf(n), length: n.data.length, head: n.data.slice(0, 24), blank: /^[ \t\n\r\f]*$/.test(n.data), rect: invisible(n) ? null : union(range.getClientRects()) });
    }
  }
  const images: LayoutImage[] = [];
  for (const img of document.body ? Array.from(document.body.getElementsByTagName("img")) : []) {
    const box = img.getBoundingClientRect();
    const shown = style(img).visibility === "visible" && !hidden(img);
    images.push({ nodeName: name(img), url: img.currentSrc || img.src || null, rect: shown ? union([box]) : null, natural: [img.naturalWidth, img.naturalHeight], displayed: [round(box.width), round(box.height)] });
  }
  return { viewport: { width: vw, height: vh }, blocks, texts, images, truncated };
}

/** The main frame's layout after the load; null when the page would not say (navigated away, no body, a timeout). */
export async function captureLayout(session: CDPSession): Promise<PageLayout | null> {
  try {
    const r = (await withTimeout(
      session.send("Runtime.evaluate", { expression: `(${measure.toString()})(${MAX_LAYOUT_TEXTS})`, returnByValue: true }),
      15000,
    )) as any;
    const v = r?.result?.value;
    return v && Array.isArray(v.texts) ? (v as PageLayout) : null;
  } catch {
    return null;
  }
}
