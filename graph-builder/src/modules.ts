import type { ArchiveEntry } from "@pagepath/profiler";
import { latestFinished, type BuildContext, type DocumentState } from "./context.js";
import type { GraphNode } from "./graph.js";
import type { ScriptTag } from "./html-scripts.js";
import { resolveSpecifier, staticImportSpecifiers } from "./module-imports.js";
import { urlsOfEvents } from "./trace-intervals.js";
import { sameUrl, urlKey } from "./url-key.js";

/**
 * ES modules (HTML's "fetch a module script graph"): a module's static imports are fetched as soon
 * as the module has arrived and been parsed, before anything runs, and the entry module is
 * evaluated only once its whole static import graph has arrived. Dynamic import() is a request made
 * by running code, which the trace's nesting attributes like any other.
 */

/** The URLs V8 compiled as modules (v8.compileModule), keyed as urlKey gives them. */
export function moduleUrls(trace: unknown[]): Set<string> {
  return urlsOfEvents(trace, "v8.compileModule");
}

/**
 * The module resource whose static import made this request: the initiator is a module's code, and
 * that module had arrived (its resource finished) when the request went out. Requests made while a
 * module ran (dynamic import) are nested in its evaluation and never get here.
 */
export function staticImporter(ctx: BuildContext, entry: ArchiveEntry, requestedAt: number): GraphNode | undefined {
  const init = entry.initiator;
  if (init.type !== "script" || !init.url || !ctx.moduleUrls.has(urlKey(init.url))) return undefined;
  return latestFinished(ctx, requestedAt, (r) => sameUrl(r.resource!.url, init.url!));
}

/**
 * Adds the static imports each arrived module's source names (module-imports.ts) to the import
 * graph, so an evaluation also waits for imports that some other fetch (a modulepreload, another
 * module) brought in. The request edges stay as the trace's initiators give them.
 */
export function addSourceImports(ctx: BuildContext, body: (sha256: string) => Buffer | null): void {
  const byRequest = new Map(ctx.archive.map((e) => [e.requestId, e]));
  // The first resource of each URL, as a search in request order would find it.
  const byUrl = new Map<string, GraphNode>();
  for (const r of ctx.resourceByRequest.values()) if (!byUrl.has(urlKey(r.resource!.url))) byUrl.set(urlKey(r.resource!.url), r);
  for (const [requestId, node] of ctx.resourceByRequest) {
    const url = node.resource!.url;
    const sha = byRequest.get(requestId)?.body?.sha256;
    const source = ctx.moduleUrls.has(urlKey(url)) && sha ? body(sha) : null;
    if (!source) continue;
    const map = ctx.frames.get(node.frameId)?.docs.at(-1)?.importMap ?? new Map();
    const known = ctx.moduleImports.get(node.id) ?? [];
    for (const specifier of staticImportSpecifiers(source.toString("utf8"))) {
      const target = resolveSpecifier(specifier, url, map);
      const imported = target === null ? undefined : byUrl.get(urlKey(target));
      if (imported && imported !== node && !known.includes(imported.id)) known.push(imported.id);
    }
    if (known.length) ctx.moduleImports.set(node.id, known);
  }
}

export function linkStaticImport(ctx: BuildContext, importer: GraphNode, imported: GraphNode): void {
  ctx.draft.edge(importer, imported, "module-import", "observed");
  ctx.moduleImports.set(importer.id, [...(ctx.moduleImports.get(importer.id) ?? []), imported.id]);
}

/** The `<script type=module>` of these documents whose src is url, if any. */
export function moduleTag(docs: DocumentState[], url: string): ScriptTag | undefined {
  for (const d of docs) for (const s of d.scripts) if (s.type === "module" && sameUrl(s.src, url)) return s;
  return undefined;
}

/** The module resources some module imports statically. */
function importedStatically(ctx: BuildContext): Set<string> {
  return new Set([...ctx.moduleImports.values()].flat());
}

/**
 * Modules fetched for import() and their static imports: HTML's "delay the load event" covers a
 * script element's fetches, not these (checked against Chromium on the fidelity fixture, whose load
 * fires before its dynamically imported module arrives).
 */
export function dynamicallyImported(ctx: BuildContext): Set<GraphNode> {
  const viaImport = importedStatically(ctx);
  const docs = [...ctx.frames.values()].flatMap((f) => f.docs);
  const found = new Set<GraphNode>();
  for (const r of ctx.resourceByRequest.values()) {
    const res = r.resource!;
    if (!ctx.moduleUrls.has(urlKey(res.url)) || viaImport.has(r.id) || res.initiatorType !== "script" || moduleTag(docs, res.url)) continue;
    found.add(r);
    for (const m of staticGraph(ctx, r)) found.add(m);
  }
  return found;
}

/** Every module an entry module's resource imports statically, directly or not. */
function staticGraph(ctx: BuildContext, entry: GraphNode): GraphNode[] {
  const seen = new Set<string>([entry.id]);
  const stack = [entry.id];
  while (stack.length) {
    for (const next of ctx.moduleImports.get(stack.pop()!) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(next);
    }
  }
  seen.delete(entry.id);
  return [...seen].map((id) => ctx.draft.byId.get(id)!);
}

/**
 * The module an evaluation without a `<script type=module>` of its own runs: one loaded by dynamic
 * import(), the latest module to arrive before the evaluation began that no module imports
 * statically and no other evaluation ran.
 */
export function dynamicModuleEntry(ctx: BuildContext, evaluation: GraphNode): GraphNode | undefined {
  const imported = importedStatically(ctx);
  const evaluated = new Set(ctx.computations.filter((c) => c.script?.type === "module" && c.script.url).map((c) => urlKey(c.script!.url)));
  return latestFinished(ctx, evaluation.start, (r) => {
    const key = urlKey(r.resource!.url);
    return ctx.moduleUrls.has(key) && !imported.has(r.id) && !evaluated.has(key);
  });
}

/** A module evaluation waits for every module of its entry's static graph (R10, one per file). */
export function linkModuleGraph(ctx: BuildContext, evaluation: GraphNode, entryResource: GraphNode): void {
  for (const imported of staticGraph(ctx, entryResource)) ctx.draft.edge(imported, evaluation, "R10", "inferred");
}
