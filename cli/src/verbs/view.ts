import { resolve } from "node:path";
import { DEFAULT_HOST, DEFAULT_PORT, startViewer } from "@pagepath/viewer";
import { numberOption, type Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";

export const viewVerb: Verb = {
  name: "view",
  summary: "browse graphs and results in a web UI: index, graph, timeline, compare, experiment results",
  usage: `
usage: pagepath view [DIR] [--host HOST] [--port PORT]

Serves a web UI over the dependency graphs found in DIR (default corpus-data), up to four folders
deep (e.g. DIR/graphs/*.json): a sortable index of the sites; each graph laid out by Graphviz's dot
and drawn on a canvas (zoom, pan, search and filters, node details, the critical path, collapsible
frames and timer chains); a timeline of the recorded load, with replayed runs beside it when DIR has
experiment results or run results (pagepath replay's: pagepath view runs lists them, each opening the
timeline of the graph it replayed); two graphs compared; and experiment results (runs, heatmaps,
CDFs). Only files inside DIR are served, and the graphs its run results replayed while their bytes
are the ones replayed; the biggest graphs are laid out in the background at start. Prints the URL
to open; stop with Ctrl-C.
  --host HOST   address to listen on (default ${DEFAULT_HOST}: this machine only)
  --port PORT   port (default ${DEFAULT_PORT}; 0 picks a free one)
`,
  paths: { positionals: true },
  options: { host: { type: "string", default: DEFAULT_HOST }, port: { type: "string" } },
  async run(values, positionals) {
    const dir = positionals[0] ?? resolve("corpus-data");
    const port = numberOption(values, "port", DEFAULT_PORT, 0, 65535);
    const viewer = await startViewer({ dir, host: String(values.host), port });
    process.stdout.write(`pagepath viewer for ${shownPath(dir)}: open ${viewer.url}\n`);
    await new Promise<void>((done) => {
      const stop = (): void => void viewer.close().then(done);
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    return 0;
  },
};
