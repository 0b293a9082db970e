import type { PageLayout, Rect } from "@pagepath/profiler";
import { parse, type DefaultTreeAdapterMap } from "parse5";
import type { BuildContext } from "./context.js";
import { chunkAtLine } from "./first-content.js";
import { blocksText, matchFaces } from "./font-faces.js";
import type { GraphNode, LcpCandidate, LcpElement } from "./graph.js";
import { mainFrameFaces } from "./paint-markers.js";
import { fetchedFor, urlKey } from "./url-key.js";

type P5Node = DefaultTreeAdapterMap["node"];
type P5Element = DefaultTreeAdapterMap["element"];

/** How far ahead in the source a text node of the page is looked for (script-made nodes are skipped over). */
const MATCH_WINDOW = 64;

/** Of several blocks named as the recorded text element, the one whose size differs by less than this share is it. */
const SAME_TEXT_SHARE = 0.25;

/**
 * The largest contentful paint's candidates (W3C Largest Contentful Paint §2; Chromium's
 * TextPaintTimingDetector and ImagePaintTimingDetector) of the main document, from the recording's
 * layout: each `<img>` in view, and each block container's text, sized as a paint after each parse
 * chunk would have sized it. Chromium sizes a block's text once, at the block's first paint, as the
 * union of the text laid out by then, so the same page can name a different element: the body's
 * loose text (the whitespace between inline images) measured 2,176 px on the recording of
 * gen-pagepath-22, painted after 8 images were parsed, and 129,238 px in a replay whose first paint
 * came after two iframes' lines, beating the paragraph the recording named.
 *
 * Text nodes and images are placed in the source with parse5 (the HTML standard's tree
 * construction, with source locations) and matched to the layout's, which lists the DOM's in
 * document order, by their text (images: their URL); a node a script made has no place in the
 * source and is left out. Undefined without a layout, a main document source or parse line ranges.
 */
export function buildLcpCandidates(ctx: BuildContext, layout: PageLayout | null | undefined, body: (sha256: string) => Buffer | null): LcpCandidate[] | undefined {
  const main = ctx.frames.get(ctx.mainFrameId);
  const doc = main?.docs[0];
  if (!layout || !doc?.body || doc.parses.some((p) => p.parse!.startLine === null || p.parse!.endLine === null)) return undefined;
  const emulated = (n: GraphNode | undefined) => (n && n.excluded === null ? n : undefined);
  const chunkAt = (line: number) => emulated(chunkAtLine(doc, line));
  const placed = sourceLines(doc.body.toString("utf8"), layout, doc.url);
  const candidates: LcpCandidate[] = [];

  // Text: per block, the union of its text nodes' boxes after each chunk.
  const faces = mainFrameFaces(ctx, body);
  const fonts = ctx.draft.nodes.filter((n) => n.kind === "resource" && n.frameId === ctx.mainFrameId && n.excluded === null && n.resource!.resourceType === "Font");
  const perBlock = new Map<number, { chunk: GraphNode; rect: Rect; blank: boolean }[]>();
  placed.texts.forEach((line, i) => {
    const t = layout.texts[i]!;
    const chunk = line === null || t.rect === null ? undefined : chunkAt(line);
    if (!chunk) return;
    const part = { chunk, rect: t.rect!, blank: t.blank ?? (t.length <= t.head.length && BLANK.test(t.head)) };
    const parts = perBlock.get(t.block);
    if (parts) parts.push(part);
    else perBlock.set(t.block, [part]);
  });
  for (const [block, inOrder] of perBlock) {
    const b = layout.blocks[block]!;
    const waited = new Set(matchFaces(faces, b.font).filter(blocksText).flatMap((f) => f.urls.map(urlKey)));
    const parts = paintedWith(inOrder).map((chunk, i) => ({ chunk, rect: inOrder[i]!.rect }));
    parts.sort((x, y) => x.chunk.end - y.chunk.end);
    let union: Rect | null = null;
    const sizes: LcpCandidate["sizes"] = [];
    for (const { chunk, rect } of parts) {
      union = union ? [Math.min(union[0], rect[0]), Math.min(union[1], rect[1]), Math.max(union[2], rect[2]), Math.max(union[3], rect[3])] : rect;
      const size = round(area(union));
      if (sizes.at(-1)?.after === chunk.id) sizes.at(-1)!.size = size;
      else if (size > (sizes.at(-1)?.size ?? 0)) sizes.push({ after: chunk.id, size });
    }
    candidates.push({ type: "text", nodeName: b.nodeName, url: null, sizes, waitsFor: fonts.filter((f) => waited.has(urlKey(f.resource!.url))).map((f) => f.id), recorded: false });
  }

  // Images: the visible area, scaled down when upscaled (LCP §2.3: an image counts at most its own pixels).
  layout.images.forEach((img, i) => {
    const line = placed.images[i];
    const chunk = line === null || line === undefined ? undefined : chunkAt(line);
    if (!img.rect || !img.url || !chunk) return;
    const shown = area(img.rect);
    const natural = img.natural[0] * img.natural[1];
    const displayed = img.displayed[0] * img.displayed[1];
    const size = round(natural > 0 && displayed > natural ? shown * (natural / displayed) : shown);
    const fetched = img.url.startsWith("data:") ? undefined : imageResource(ctx, img.url);
    if (!img.url.startsWith("data:") && !fetched) return;
    candidates.push({ type: "image", nodeName: img.nodeName, url: img.url, sizes: [{ after: chunk.id, size }], waitsFor: fetched ? [fetched.id] : [], recorded: false });
  });

  // Without the recorded element's size the lcp marker could not compete: keep to the marker.
  if (!markRecorded(ctx, candidates)) return undefined;
  return candidates.filter((c) => c.sizes.length > 0);
}

/** Collapsible white space (CSS Text §4.1): spaces, tabs and line breaks, not U+00A0, which paints. */
const BLANK = /^[ \t\n\r\f]*$/;

/**
 * The parse chunk after which each of a block's text nodes, in document order, is painted. White
 * space paints only between inline content (CSS Text §4.1.3: white space at the end of a line hangs
 * and is not drawn), so a blank node is drawn once what follows it on its line is parsed, which in
 * the final layout is the block's next text with a box or an element before it: the next part's
 * chunk. On gen-pagepath-17 the line break after an iframe, the last thing its parse chunk laid
 * out, counted in the final layout (332 px right of the body's first space); Chromium's first paint
 * sized the body's text at 85 px, one space, and the paragraph painted after it became the LCP.
 */
export function paintedWith<T>(parts: { chunk: T; blank: boolean }[]): T[] {
  return parts.map((p, i) => (p.blank && i + 1 < parts.length ? parts[i + 1]!.chunk : p.chunk));
}

/** The recording's own LCP element among the candidates, or added as one of its recorded size; false when the recording does not name it. */
function markRecorded(ctx: BuildContext, candidates: LcpCandidate[]): boolean {
  const element: LcpElement | null | undefined = ctx.manifest.lifecycle.largestContentfulPaintElement;
  const at = ctx.manifest.lifecycle.largestContentfulPaint;
  if (!element || at === null) return false;
  const sizeAt = (c: LcpCandidate) => c.sizes.filter((s) => s.after === null || ctx.draft.byId.get(s.after)!.end <= at).at(-1)?.size ?? 0;
  const named = candidates.filter((c) => c.type === element.type && (element.type === "image" ? urlKey(c.url) === urlKey(element.url) : c.nodeName === element.nodeName));
  const same = named.map((c) => ({ c, off: Math.abs(sizeAt(c) - element.size) / Math.max(1, element.size) })).sort((x, y) => x.off - y.off)[0];
  // One block of that name is the element whatever its size (the recording may have painted it
  // partway through a chunk); of several, the one whose size is close to the recorded.
  if (same && (element.type === "image" || named.length === 1 || same.off < SAME_TEXT_SHARE)) same.c.recorded = true;
  else candidates.push({ type: element.type, nodeName: element.nodeName, url: element.url, sizes: [{ after: null, size: element.size }], waitsFor: [], recorded: true });
  return true;
}

/** The main frame's fetch of the image at `url`, as the browser compares URLs. */
export function imageResource(ctx: BuildContext, url: string): GraphNode | undefined {
  return ctx.draft.nodes.find((n) => n.kind === "resource" && n.frameId === ctx.mainFrameId && n.excluded === null && fetchedFor(n.resource!, url));
}

/**
 * For each of the layout's text nodes and images, the 0-based line of the main document's source
 * where the parser made it, or null when it is not in the source (a script made it).
 */
export function sourceLines(html: string, layout: Pick<PageLayout, "texts" | "images">, base: string): { texts: (number | null)[]; images: (number | null)[] } {
  const source = placeInSource(html);
  return { texts: matchTexts(layout, source.texts), images: matchImages(layout, source.images, base) };
}

interface SourceText {
  value: string;
  line: number;
}

interface SourceImage {
  src: string | null;
  line: number;
}

/** The body's text nodes and images in document order, with their 0-based source lines, as the HTML parser builds them. */
function placeInSource(html: string): { texts: SourceText[]; images: SourceImage[] } {
  const texts: SourceText[] = [];
  const images: SourceImage[] = [];
  const document = parse(html, { sourceCodeLocationInfo: true });
  const html_ = document.childNodes.find((n): n is P5Element => n.nodeName === "html");
  const bodyEl = html_?.childNodes.find((n): n is P5Element => n.nodeName === "body");
  const walk = (n: P5Node) => {
    const loc = (n as { sourceCodeLocation?: { startLine: number } | null }).sourceCodeLocation;
    // Nodes the parser made up (an implied <tbody>) have no location: their children still do.
    if (n.nodeName === "#text") {
      if (loc) texts.push({ value: (n as DefaultTreeAdapterMap["textNode"]).value, line: loc.startLine - 1 });
      return;
    }
    if (n.nodeName === "img" && loc) images.push({ src: (n as P5Element).attrs.find((a) => a.name === "src")?.value ?? null, line: loc.startLine - 1 });
    for (const c of (n as P5Element).childNodes ?? []) walk(c);
  };
  if (bodyEl) walk(bodyEl);
  return { texts, images };
}

/** For each layout text, the source line of the text node it is, or null (made by a script). */
function matchTexts(layout: Pick<PageLayout, "texts">, source: SourceText[]): (number | null)[] {
  let from = 0;
  return layout.texts.map((t) => {
    for (let j = from; j < Math.min(source.length, from + MATCH_WINDOW); j++) {
      const s = source[j]!;
      if (s.value.length === t.length && s.value.slice(0, t.head.length) === t.head) {
        from = j + 1;
        return s.line;
      }
    }
    return null;
  });
}

/** For each layout image, the source line of its `<img>`, matched by URL in order, or null. */
function matchImages(layout: Pick<PageLayout, "images">, source: SourceImage[], base: string): (number | null)[] {
  const resolved = source.map((s) => {
    try {
      return s.src === null ? null : urlKey(new URL(s.src, base).href);
    } catch {
      return null;
    }
  });
  let from = 0;
  return layout.images.map((img) => {
    const key = img.url === null ? null : urlKey(img.url);
    const j = resolved.findIndex((r, k) => k >= from && r === key);
    if (j < 0) return null;
    from = j + 1;
    return source[j]!.line;
  });
}

/** A rect's area in CSS pixels, 0 when it is empty. */
export const area = (r: Rect) => Math.max(0, r[2] - r[0]) * Math.max(0, r[3] - r[1]);
const round = (x: number) => Math.round(x * 1000) / 1000;
