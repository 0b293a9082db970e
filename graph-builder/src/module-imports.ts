/**
 * A module's static imports as the browser finds them: from its source, once it has arrived
 * (HTML's "fetch the descendants of a module script"), each specifier resolved against the
 * module's URL and the document's import map (HTML's "resolve a module specifier"). The trace
 * names the module that requested an import, but not the imports whose modules were already in the
 * module map (a `<link rel=modulepreload>`, another module's import): the source names them all.
 */

/** An import map's `imports` (HTML "import maps"); scopes are left out: no fixture or page used them. */
export type ImportMap = Map<string, string>;

/**
 * The specifiers of a module's static imports and re-exports (`import x from "s"`, `import "s"`,
 * `export * from "s"`), in order. A light scan, not a JavaScript parser: comments are stripped
 * first, and `import(` (dynamic) and `import.meta` are not imports.
 */
export function staticImportSpecifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/(^|[^:"'`\\])\/\/[^\n]*/g, "$1");
  const out: string[] = [];
  const re = /(?:^|[;\n}])\s*(?:import\s*(?:[\w$*{}\s,]+?\s*from\s*)?|export\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*)(["'])([^"'\n]+)\1/g;
  for (const m of code.matchAll(re)) out.push(m[2]!);
  return out;
}

/** The import map a `<script type="importmap">` holds, its addresses made absolute against the document. */
export function parseImportMap(json: string, baseUrl: string): ImportMap {
  const map: ImportMap = new Map();
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return map; // the browser reports an invalid map and ignores it
  }
  const imports = (parsed as { imports?: unknown })?.imports;
  if (!imports || typeof imports !== "object") return map;
  for (const [specifier, address] of Object.entries(imports as Record<string, unknown>)) {
    if (typeof address !== "string") continue;
    try {
      map.set(specifier, new URL(address, baseUrl).href);
    } catch {
      /* an address that is not a URL maps to nothing */
    }
  }
  return map;
}

/**
 * The absolute URL a specifier resolves to, or null when the browser would refuse it (a bare
 * specifier no import map entry covers). Exact entries win over prefix entries ending in "/", and
 * the longest prefix wins, as in HTML's "resolve an imports match".
 */
export function resolveSpecifier(specifier: string, moduleUrl: string, map: ImportMap): string | null {
  const exact = map.get(specifier);
  if (exact) return exact;
  let best: [string, string] | undefined;
  for (const [key, address] of map) {
    if (key.endsWith("/") && specifier.startsWith(key) && (!best || key.length > best[0].length)) best = [key, address];
  }
  if (best) return new URL(specifier.slice(best[0].length), best[1]).href;
  if (/^(\/|\.\/|\.\.\/)/.test(specifier)) return new URL(specifier, moduleUrl).href;
  try {
    return new URL(specifier).href;
  } catch {
    return null;
  }
}
