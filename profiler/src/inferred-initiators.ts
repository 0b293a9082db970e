import type { ArchiveEntry } from "./recording.js";

/** What inference needs of an imported response. */
export interface Referrer {
  url: string;
  /** ms since the page's start. */
  start: number;
  /** When its first bytes came (a document is parsed as it arrives), and its last. */
  responded: number;
  end: number;
  resourceType: string;
  /** The body as text (HTML, CSS, JavaScript), null when it is not text or is not in the file. */
  text: string | null;
}

/**
 * The initiator of a request whose file names none (a HAR without Chrome's `_initiator`, a
 * Mahimahi or WPR archive): the response that referenced its URL and had arrived before it was
 * requested (a document as soon as its first bytes came, as it is parsed while it arrives; a style
 * sheet or script once whole), the page's document first (the parser finds most of a page), else
 * the style sheet or script that ended last before it; failing both, the page's document, by document order. Either
 * way the initiator says it was inferred and how.
 */
export function inferInitiator(target: { url: string; start: number }, referrers: Referrer[], mainDocument: Referrer): ArchiveEntry["initiator"] {
  const needles = spellings(target.url);
  const arrived = (r: Referrer) => (r.resourceType === "Document" ? r.responded : r.end) <= target.start;
  const holds = (r: Referrer) => r.text !== null && arrived(r) && r.url !== target.url && needles.some((n) => contains(r.text!, n));
  return initiatorFrom(referrers.find((r) => r.resourceType === "Document" && holds(r)) ?? referrers.filter((r) => r.resourceType !== "Document" && holds(r)).sort((a, b) => b.end - a.end)[0], mainDocument, needles);
}

/** `text` names `url`: whole, without its scheme, by its path or by its last segment. */
export function names(text: string, url: string): boolean {
  return spellings(url).some((n) => contains(text, n));
}

/** The initiator a response that named the request makes (the page's document's, by document order, when none did). */
export function initiatorFrom(found: Referrer | undefined, mainDocument: Referrer, needles: string[]): ArchiveEntry["initiator"] {
  if (!found) return { type: "parser", url: mainDocument.url, lineNumber: null, stackFunctions: [], inferred: "document-order" };
  return {
    type: found.resourceType === "Script" ? "script" : "parser",
    url: found.url,
    lineNumber: found.resourceType === "Document" ? lineOf(found.text!, needles) : null,
    stackFunctions: [],
    inferred: "referencing-response",
  };
}

/** How a page may write a URL: whole, without its scheme, from its path, or by its last segment. */
export function spellings(url: string): string[] {
  try {
    const u = new URL(url);
    const path = u.pathname + u.search;
    const last = path.slice(path.lastIndexOf("/", u.pathname.length - 1) + 1);
    return [url, `//${u.host}${path}`, path, last].filter((s, i, all) => s.length > 1 && all.indexOf(s) === i);
  } catch {
    return [url];
  }
}

/** `needle` in `text` as a URL is written there: after a quote, bracket, slash, = or space. */
function contains(text: string, needle: string): boolean {
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    if (at === 0 || /["'(=\s/,]/.test(text[at - 1]!)) return true;
  }
  return false;
}

function lineOf(text: string, needles: string[]): number | null {
  for (const n of needles) {
    const at = text.indexOf(n);
    if (at >= 0) return text.slice(0, at).split("\n").length - 1;
  }
  return null;
}
