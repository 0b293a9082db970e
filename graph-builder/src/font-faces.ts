/**
 * Which web font a text paint waits for, as the browser decides it: the page's `@font-face` rules
 * (CSS Fonts 4 §4), the element's computed font matched against them (§5.2, font matching), and
 * the face's `font-display` (§4.9): text in a `block` or `auto` face is invisible until its font
 * arrives or its block period ends, while `swap`, `fallback` and `optional` faces paint
 * in a fallback font first, and Chromium's largest contentful paint counts that first paint.
 */

export interface FontFaceRule {
  /** `font-family` as declared, unquoted. */
  family: string;
  /** `font-style`: normal, italic or oblique. */
  style: string;
  /** The `font-weight` range the face covers (a single weight is [w, w]). */
  weights: [number, number];
  /** `font-display`; `auto` when the rule does not say. */
  display: string;
  /** The `src` URLs in order, absolute; `local()` sources and data: URLs are left out (nothing is fetched). */
  urls: string[];
}

/** The `@font-face` rules of a style sheet (or a `<style>` element's text), URLs resolved against `baseUrl`. */
export function scanFontFaces(css: string, baseUrl: string): FontFaceRule[] {
  const code = css.replace(/\/\*[\s\S]*?\*\//g, " ");
  const out: FontFaceRule[] = [];
  for (const m of code.matchAll(/@font-face\s*\{([^}]*)\}/gi)) {
    const d = descriptors(m[1]!);
    const family = unquote(d.get("font-family") ?? "");
    if (!family) continue;
    out.push({
      family,
      style: (d.get("font-style") ?? "normal").split(/\s+/)[0]!.toLowerCase(),
      weights: weightRange(d.get("font-weight") ?? "normal"),
      display: (d.get("font-display") ?? "auto").toLowerCase(),
      urls: sourceUrls(d.get("src") ?? "", baseUrl),
    });
  }
  return out;
}

/**
 * Whether text in this face stays invisible while its font loads, for a block period (§4.9): 3 s
 * from the font's request for `block`; for `auto`, until 2 s after navigation start in Chromium
 * (the replay's font_display.rs).
 */
export function blocksText(face: FontFaceRule): boolean {
  return face.display === "auto" || face.display === "block";
}

/**
 * The faces text with this computed font uses: the first family in the list that has `@font-face`
 * rules (an earlier family with none is a locally installed or generic font, and then no web font
 * is needed), the style closest to the asked one, then the weight CSS font matching picks. All
 * faces of that family, style and weight are returned: `unicode-range` subsets of one font are
 * separate rules, and the recording shows which of them the page's characters made it fetch.
 */
export function matchFaces(faces: FontFaceRule[], font: { family: string; weight: string; style: string }): FontFaceRule[] {
  for (const family of font.family.split(",").map((f) => unquote(f.trim()).toLowerCase())) {
    const ofFamily = faces.filter((f) => f.family.toLowerCase() === family);
    if (!ofFamily.length) continue;
    const styled = closestStyle(ofFamily, font.style.toLowerCase());
    const w = closestWeight(styled, weightRange(font.weight)[0]);
    return styled.filter((f) => f.weights[0] <= w && w <= f.weights[1]);
  }
  return [];
}

function closestStyle(faces: FontFaceRule[], style: string): FontFaceRule[] {
  const order = style === "italic" ? ["italic", "oblique", "normal"] : style === "oblique" ? ["oblique", "italic", "normal"] : ["normal", "oblique", "italic"];
  for (const s of order) {
    const hit = faces.filter((f) => f.style === s);
    if (hit.length) return hit;
  }
  return faces;
}

/** §5.2 step 4: the desired weight if covered; else for 400-500 up to 500, then down, then up; below 400 down first; above 500 up first. */
function closestWeight(faces: FontFaceRule[], w: number): number {
  if (faces.some((f) => f.weights[0] <= w && w <= f.weights[1])) return w;
  const below = faces.filter((f) => f.weights[1] < w).map((f) => f.weights[1]);
  const above = faces.filter((f) => f.weights[0] > w).map((f) => f.weights[0]);
  const nearestBelow = below.length ? Math.max(...below) : undefined;
  const nearestAbove = above.length ? Math.min(...above) : undefined;
  if (w >= 400 && w <= 500) {
    const upTo500 = above.filter((a) => a <= 500);
    if (upTo500.length) return Math.min(...upTo500);
    return nearestBelow ?? nearestAbove!;
  }
  return w < 400 ? (nearestBelow ?? nearestAbove!) : (nearestAbove ?? nearestBelow!);
}

/** Declarations split at `;` outside parentheses and quotes (a data: URL holds `;`). */
function descriptors(block: string): Map<string, string> {
  const out = new Map<string, string>();
  let depth = 0;
  let quote = "";
  let start = 0;
  const take = (end: number) => {
    const decl = block.slice(start, end);
    const colon = decl.indexOf(":");
    if (colon > 0) out.set(decl.slice(0, colon).trim().toLowerCase(), decl.slice(colon + 1).trim());
    start = end + 1;
  };
  for (let i = 0; i < block.length; i++) {
    const c = block[i]!;
    if (quote) quote = c === quote ? "" : quote;
    else if (c === '"' || c === "'") quote = c;
    else if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    else if (c === ";" && depth === 0) take(i);
  }
  take(block.length);
  return out;
}

function weightRange(value: string): [number, number] {
  const named = (v: string) => (v === "bold" ? 700 : v === "normal" ? 400 : Number(v));
  const parts = value.trim().toLowerCase().split(/\s+/).map(named).filter((n) => Number.isFinite(n));
  if (!parts.length) return [400, 400];
  return [Math.min(...parts), Math.max(...parts)];
}

function sourceUrls(src: string, baseUrl: string): string[] {
  const out: string[] = [];
  for (const m of src.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)/gi)) {
    const raw = m[1] ?? m[2] ?? m[3] ?? "";
    if (!raw || raw.startsWith("data:")) continue;
    try {
      out.push(new URL(raw, baseUrl).href);
    } catch {
      /* not a URL: the browser skips this source */
    }
  }
  return out;
}

function unquote(s: string): string {
  return s.replace(/^["']|["']$/g, "").trim();
}
