import { parseImportMap, type ImportMap } from "./module-imports.js";
import type { ScriptType } from "./graph.js";

export interface ScriptTag {
  /** Absolute URL of an external script; null for inline. */
  src: string | null;
  type: ScriptType;
  /** 0-based line of the tag, as Chrome's trace and initiators count lines. */
  line: number;
  /** An external script or a module marked `async`: it runs once it (and a module's imports) arrive, not after the parser. */
  async: boolean;
}

/** HTML's JavaScript MIME type essence matches: the types a classic script may carry and still run. */
const JAVASCRIPT_TYPES = /^(?:(?:text|application)\/(?:x-)?(?:javascript|ecmascript)|text\/javascript1\.[0-5]|text\/(?:jscript|livescript))$/;

/**
 * The script tags of an HTML document, in order, with how each runs. A light scan (not a full HTML
 * parser): enough to tell sync, async, defer and module apart, which the trace does not record.
 */
export function scanScripts(html: string, baseUrl: string): ScriptTag[] {
  const out: ScriptTag[] = [];
  const re = /<script\b([^>]*)>/gi;
  let m: RegExpExecArray | null;
  const lineAt = lineCounter(html);
  while ((m = re.exec(html))) {
    const attrs = m[1] ?? "";
    const line = lineAt(m.index);
    const src = attr(attrs, "src");
    const type = (attr(attrs, "type") ?? "").trim().toLowerCase();
    if (type !== "" && type !== "module" && !JAVASCRIPT_TYPES.test(type)) continue; // a data block (JSON-LD, templates, import maps): never run
    let abs: string | null = null;
    if (src !== null) {
      try {
        abs = new URL(src, baseUrl).href;
      } catch {
        abs = null;
      }
    }
    // An inline classic script ignores async; an inline module honours it.
    const async = (src !== null || type === "module") && /(^|\s)async(\s|=|$)/i.test(attrs);
    let kind: ScriptType;
    if (type === "module") kind = "module";
    else if (src === null) kind = "inline";
    else if (async) kind = "async";
    else if (/(^|\s)defer(\s|=|$)/i.test(attrs)) kind = "defer";
    else kind = "sync";
    out.push({ src: abs, type: kind, line, async });
  }
  return out;
}

/**
 * The absolute URLs of the document's `<link rel=prefetch>` tags: Chromium types their requests
 * `Other`, so only the markup tells them from requests that hold the load event.
 */
export function scanPrefetches(html: string, baseUrl: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<link\b([^>]*)>/gi)) {
    const attrs = m[1] ?? "";
    const href = attr(attrs, "href");
    if (href === null || !(attr(attrs, "rel") ?? "").toLowerCase().split(/\s+/).includes("prefetch")) continue;
    try {
      out.push(new URL(href, baseUrl).href);
    } catch {
      /* not a URL: nothing is fetched */
    }
  }
  return out;
}

export interface PreconnectTag {
  /** `scheme://host[:port]`. */
  origin: string;
  /** `crossorigin` (anonymous): the connection is for requests without credentials. */
  privacyMode: boolean;
  /** 0-based line of the tag. */
  line: number;
}

/**
 * The document's `<link rel=preconnect>` tags: Chromium opens a connection to the origin as soon
 * as its preload scanner (or its parser) meets the tag, in the pool `crossorigin` names, so the
 * page's first request there finds it ready. Only http(s) origins; `dns-prefetch` is left out, as
 * a replay resolves names through its host-resolver rules at no cost.
 */
export function scanPreconnects(html: string, baseUrl: string): PreconnectTag[] {
  const out: PreconnectTag[] = [];
  const lineAt = lineCounter(html);
  for (const m of html.matchAll(/<link\b([^>]*)>/gi)) {
    const attrs = m[1] ?? "";
    const href = attr(attrs, "href");
    if (href === null || !(attr(attrs, "rel") ?? "").toLowerCase().split(/\s+/).includes("preconnect")) continue;
    let url: URL;
    try {
      url = new URL(href, baseUrl);
    } catch {
      continue; // not a URL: nothing is opened
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") continue;
    // Any crossorigin value but use-credentials makes the connection anonymous.
    const cors = attr(attrs, "crossorigin") ?? (/(^|\s)crossorigin(\s|$)/i.test(attrs) ? "" : null);
    out.push({ origin: url.origin, privacyMode: cors !== null && cors.toLowerCase() !== "use-credentials", line: lineAt(m.index!) });
  }
  return out;
}

/**
 * The document's lazy images (`<img loading=lazy>`), with the 0-based line of each tag: Chromium
 * fetches them once layout finds them near the viewport, and its initiator for them is "other".
 */
export function scanLazyImages(html: string, baseUrl: string): { src: string; line: number }[] {
  const out: { src: string; line: number }[] = [];
  const lineAt = lineCounter(html);
  for (const m of html.matchAll(/<img\b([^>]*)>/gi)) {
    const attrs = m[1] ?? "";
    const src = attr(attrs, "src");
    if (src === null || (attr(attrs, "loading") ?? "").toLowerCase() !== "lazy") continue;
    try {
      out.push({ src: new URL(src, baseUrl).href, line: lineAt(m.index!) });
    } catch {
      /* not a URL: nothing is fetched */
    }
  }
  return out;
}

/** The document's import map: the first `<script type="importmap">`, as Chromium takes only one. */
export function scanImportMap(html: string, baseUrl: string): ImportMap {
  const m = /<script\b[^>]*\btype\s*=\s*["']?importmap["']?[^>]*>([\s\S]*?)<\/script\s*>/i.exec(html);
  return m ? parseImportMap(m[1]!, baseUrl) : new Map();
}

/**
 * The 0-based line of a character index in html. Asked for indices in increasing order it counts
 * each newline once, so a scan of the whole document stays linear.
 */
export function lineCounter(html: string): (index: number) => number {
  let line = 0;
  let counted = 0;
  return (index) => {
    if (index < counted) {
      line = 0;
      counted = 0;
    }
    for (; counted < index; counted++) if (html.charCodeAt(counted) === 10) line++;
    return line;
  };
}

/** Each document's newline offsets, found once: a large page asks for a line per request it names. */
const newlines = new WeakMap<Buffer, Uint32Array>();

/** Byte offset just past the given 0-based line (where the parser has consumed it whole). */
export function offsetAfterLine(html: Buffer, line: number): number {
  let ends = newlines.get(html);
  if (!ends) {
    const found: number[] = [];
    for (let i = html.indexOf(0x0a); i !== -1; i = html.indexOf(0x0a, i + 1)) found.push(i);
    ends = Uint32Array.from(found);
    newlines.set(html, ends);
  }
  return line >= 0 && line < ends.length ? ends[line]! + 1 : html.length;
}

function attr(attrs: string, name: string): string | null {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(attrs);
  return m ? m[1] ?? m[2] ?? m[3] ?? "" : null;
}
