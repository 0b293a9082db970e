import type { DocumentState } from "./context.js";
import type { GraphNode } from "./graph.js";

/**
 * The parse chunk that first gave the document something contentful to paint (Paint Timing's
 * "contentful": text, an image, an SVG or canvas, a form control): from the chunk that reached
 * `<body>` on, the first whose lines hold such content. Chromium paints what has been parsed while
 * the parser waits for a script in the body, so the first contentful paint needs this chunk, not
 * the scripts after it; on a fast recording link they had often run before the first frame anyway.
 * Undefined when the document or its line ranges are not known.
 */
export function firstContentChunk(doc: DocumentState): GraphNode | undefined {
  const from = doc.parses.findIndex((p) => p.parse!.bodyReached);
  if (from < 0 || !doc.body) return undefined;
  const lines = doc.body.toString("utf8").split("\n");
  for (let i = from; i < doc.parses.length; i++) {
    const text = sourceOf(doc, lines, from, i, i);
    if (text === undefined) return undefined;
    if (hasContent(text)) return doc.parses[i];
  }
  return undefined;
}

/**
 * The source lines of parse chunks `first`..`last` (indices into `doc.parses`), from the `<body>`
 * tag on when `first` is `body`, the chunk that reached it; undefined without their line ranges.
 */
function sourceOf(doc: DocumentState, lines: string[], body: number, first: number, last: number): string | undefined {
  const start = doc.parses[first]!.parse!.startLine;
  const end = doc.parses[last]!.parse!.endLine;
  if (start === null || end === null) return undefined;
  const text = lines.slice(start, end + 1).join("\n");
  return first === body ? text.slice(Math.max(0, text.search(/<body[\s>]/i))) : text;
}

/** Whether HTML source holds something a paint would count as contentful. */
export function hasContent(html: string): boolean {
  return contentOf(html) !== null;
}

/**
 * Whether the first content of the document, up to and including `chunk`, is images only: an
 * `<img>` or `<video>` is contentful once it paints a frame of its image, after that arrived, where
 * text, SVG, a canvas or a form control is as soon as it is parsed. On gen-pagepath-29, whose body
 * opens with images and iframes, Chromium's first paint came 127 ms before its first contentful
 * one, which waited for the first image; the white space between the images is no content either.
 */
export function showsOnlyImages(doc: DocumentState, chunk: GraphNode): boolean {
  const from = doc.parses.findIndex((p) => p.parse!.bodyReached);
  const to = doc.parses.indexOf(chunk);
  if (from < 0 || to < from || !doc.body) return false;
  const html = sourceOf(doc, doc.body.toString("utf8").split("\n"), from, from, to);
  return html !== undefined && contentOf(html) === "images";
}

/** What a paint of this HTML source would count as contentful: text and the like, only images, or nothing. */
function contentOf(html: string): "text" | "images" | null {
  const visible = html
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<(script|style|template|noscript)\b[\s\S]*?(<\/\1\s*>|$)/gi, " ");
  if (/<(svg|canvas|input|textarea|select|button)\b/i.test(visible)) return "text";
  if (/[^\s]/.test(visible.replace(/<[^>]*>?/g, " ").replace(/&nbsp;/g, " "))) return "text";
  return /<(img|video)\b/i.test(visible) ? "images" : null;
}

/**
 * The parse chunk that parsed the element Chromium names `nodeName` (`H1 class='title'`,
 * `DIV id='hero'`), found by its tag and attributes in the document's source; undefined when the
 * name carries no attribute (a bare `P` could be any paragraph) or the source has no such tag.
 */
export function chunkHolding(doc: DocumentState, nodeName: string): GraphNode | undefined {
  const m = /^([A-Za-z][\w-]*)((?:\s+[\w-]+='[^']*')+)$/.exec(nodeName.trim());
  if (!m || !doc.body) return undefined;
  const attrs = [...m[2]!.matchAll(/([\w-]+)='([^']*)'/g)].map(([, name, value]) => ({ name: name!, value: value! }));
  const lines = doc.body.toString("utf8").split("\n");
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const tag = new RegExp(`<${escape(m[1]!)}\\b[^>]*>`, "i");
  const line = lines.findIndex((text) => {
    const found = tag.exec(text)?.[0];
    return found !== undefined && attrs.every((a) => new RegExp(`\\b${escape(a.name)}\\s*=\\s*["']?${escape(a.value)}["'\\s>]`, "i").test(found));
  });
  if (line < 0) return undefined;
  return chunkAtLine(doc, line);
}

/** The parse chunk holding a 0-based source line. Chunks share their boundary lines (a chunk ends partway through one): the later one is sure to hold it. */
export function chunkAtLine(doc: DocumentState, line: number): GraphNode | undefined {
  return doc.parses.filter((p) => p.parse!.startLine !== null && p.parse!.endLine !== null && p.parse!.startLine <= line && line <= p.parse!.endLine).at(-1);
}
