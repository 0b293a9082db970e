import type { BuildContext } from "./context.js";
import { chunkHolding, parseChunkAt } from "./context.js";
import { offsetAfterLine } from "./html-scripts.js";

/**
 * A `preconnect` node for each `<link rel=preconnect>` of a document (html-scripts.ts,
 * `scanPreconnects`). Chromium's preload scanner opens the connection once the bytes up to the tag
 * have arrived, its parser when it parses the tag: like a preloaded resource, the node has a
 * `preload` edge from the download chunk holding the tag and an `R1` edge from the parse chunk, and
 * the emulated browser takes the earlier. The recording does not show the connection apart from
 * the requests that later used it, so the node's time is the download chunk's end.
 */
export function buildPreconnects(ctx: BuildContext): void {
  for (const frame of ctx.frames.values()) {
    for (const doc of frame.docs) {
      if (!doc.body) continue;
      for (const tag of doc.preconnects) {
        const download = chunkHolding(doc, offsetAfterLine(doc.body, tag.line));
        const parse = parseChunkAt(doc, tag.line);
        if (!download || !parse) continue;
        const at = download.end;
        const node = ctx.draft.add({
          kind: "preconnect", frameId: frame.id, label: `preconnect ${tag.origin}${tag.privacyMode ? " (anonymous)" : ""}`,
          start: at, end: at, duration: 0, preconnect: { origin: tag.origin, privacyMode: tag.privacyMode },
        });
        ctx.draft.edge(download, node, "preload", "inferred");
        ctx.draft.edge(parse, node, "R1", "inferred");
      }
    }
  }
}
