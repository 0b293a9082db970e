import { stackLabel, type AccuracyRunSample, type AccuracySamples, type LanternCell } from "@pagepath/results";
import { conditionName } from "@pagepath/runner";

const cellOf = (s: { site: string; condition: string; protocol: string }) => `${s.site} at ${s.condition} over ${s.protocol}`;

interface Kept {
  sample: AccuracyRunSample;
  file: string;
}

/**
 * The samples of several sweeps as one sweep's (samples.json, docs/formats/accuracy-samples.md).
 * Sweeps made on different machines replayed different recordings of the corpus: a cell is only
 * compared when both clients loaded the same recording there. Chromium's runs depend on the
 * recording the servers answered from, the emulated browser's on the graph built from it, so after
 * a new graph builder or model only the emulated runs need making again: a run found in two files
 * is taken from the later one when both loaded the same recording and the later is another load
 * (the later sweep remade it), and refused otherwise. A cell is refused, naming the files, when its Chromium
 * runs answered from two recordings, its emulated runs replayed two graphs, or the two clients
 * loaded different recordings (for runs made before samples named the recording: different
 * graphs). Lantern's prediction for a site and condition comes from the first file that has one.
 * Pure, no I/O.
 */
export function mergeAccuracySamples(files: readonly { file: string; doc: AccuracySamples }[]): AccuracySamples {
  if (files.length === 0) throw new Error("nothing to merge");
  const conditions = new Map<string, AccuracySamples["conditions"][number]>();
  const configurations = new Map<string, AccuracySamples["configurations"][number]>();
  const runs = new Map<string, Kept>();
  const lantern = new Map<string, LanternCell>();
  let engine: { name: string; file: string } | null = null;
  for (const { file, doc } of files) {
    for (const c of doc.conditions) if (!conditions.has(conditionName(c))) conditions.set(conditionName(c), c);
    for (const c of doc.configurations) if (!configurations.has(stackLabel(c))) configurations.set(stackLabel(c), c);
    for (const s of doc.samples) {
      const run = `${cellOf(s)}, ${s.client} run ${s.run}`;
      const earlier = runs.get(run);
      if (earlier && !remade(earlier.sample, s)) throw new Error(`${run} is in both ${earlier.file} and ${file}: merge sweeps of different cells, or leave one of the two out (a run is taken from the later file only when it is another load of the same recording)`);
      runs.set(run, { sample: s, file });
    }
    if (doc.lantern) {
      if (engine && engine.name !== doc.lantern.engine) throw new Error(`Lantern's predictions in ${engine.file} come from ${engine.name}, those in ${file} from ${doc.lantern.engine}: merge predictions of one engine`);
      engine ??= { name: doc.lantern.engine, file };
      for (const c of doc.lantern.cells) if (!lantern.has(`${c.site}|${c.condition}`)) lantern.set(`${c.site}|${c.condition}`, c);
    }
  }
  const cells = new Map<string, Kept[]>();
  for (const k of runs.values()) cells.set(cellOf(k.sample), [...(cells.get(cellOf(k.sample)) ?? []), k]);
  for (const [cell, kept] of cells) checkCell(cell, kept, servedByGraph(configurations.get(kept[0]!.sample.protocol)?.priority));
  return {
    schemaVersion: 1,
    kind: "pagepath-accuracy-samples",
    conditions: [...conditions.values()],
    runs: Math.max(...files.map((f) => f.doc.runs)),
    configurations: [...configurations.values()],
    samples: [...runs.values()].map((r) => r.sample),
    lantern: engine ? { engine: engine.name, cells: [...lantern.values()] } : null,
  };
}

/**
 * Whether `later` remade `earlier`: the same recording, loaded again (through a graph built anew,
 * or by a new model of the browser on the same graph). The very same run twice is a sweep listed
 * twice, not a remake.
 */
function remade(earlier: AccuracyRunSample, later: AccuracyRunSample): boolean {
  return earlier.recordingSha256 !== undefined && earlier.recordingSha256 === later.recordingSha256 && JSON.stringify(earlier) !== JSON.stringify(later);
}

/** Whether the servers ordered responses by the graph's ranks, so that Chromium's runs depend on the graph too. */
const servedByGraph = (priority: string | undefined) => priority === "critical-path" || priority === "depth";

/**
 * Refuses a cell whose runs did not all load one recording, or whose emulated runs replayed two
 * graphs; with servers ordering by the graph, or runs that do not name their recording, every run
 * must have replayed one graph.
 */
function checkCell(cell: string, kept: Kept[], graphServed: boolean): void {
  const short = (sha: string) => sha.slice(0, 12);
  const oneOf = (list: Kept[], key: (s: AccuracyRunSample) => string, what: string) => {
    const other = list.find((k) => key(k.sample) !== key(list[0]!.sample));
    if (other) throw new Error(`${cell}: ${list[0]!.file} and ${other.file} ${what} (${short(key(list[0]!.sample))} and ${short(key(other.sample))}), so their runs cannot make one cell`);
  };
  oneOf(kept.filter((k) => k.sample.client !== "chromium"), (s) => s.graphSha256, "replayed different graphs of the site (sha256)");
  if (!graphServed && kept.every((k) => k.sample.recordingSha256 !== undefined)) oneOf(kept, (s) => s.recordingSha256!, "loaded different recordings of the site (archive sha256)");
  else oneOf(kept, (s) => s.graphSha256, "replayed different graphs of the site (sha256)");
}
