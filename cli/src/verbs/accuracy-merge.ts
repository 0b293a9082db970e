import { stackLabel, type AccuracyRunSample, type AccuracySamples, type LanternCell } from "@pagepath/results";
import { conditionName } from "@pagepath/runner";

const cellOf = (s: { site: string; condition: string; protocol: string }) => `${s.site} at ${s.condition} over ${s.protocol}`;

/**
 * The samples of several sweeps as one sweep's (samples.json, docs/formats/accuracy-samples.md).
 * Sweeps made on different machines replayed different recordings of the corpus: a cell is only
 * compared when both clients loaded the same graph there, so a cell whose runs come from two
 * recordings, or a run in two files, is refused, naming both files. Lantern's prediction for a site
 * and condition comes from the first file that has one. Pure, no I/O.
 */
export function mergeAccuracySamples(files: readonly { file: string; doc: AccuracySamples }[]): AccuracySamples {
  if (files.length === 0) throw new Error("nothing to merge");
  const conditions = new Map<string, AccuracySamples["conditions"][number]>();
  const configurations = new Map<string, AccuracySamples["configurations"][number]>();
  const runs = new Map<string, { sample: AccuracyRunSample; file: string }>();
  const graphs = new Map<string, { sha: string; file: string }>();
  const lantern = new Map<string, LanternCell>();
  let engine: { name: string; file: string } | null = null;
  for (const { file, doc } of files) {
    for (const c of doc.conditions) if (!conditions.has(conditionName(c))) conditions.set(conditionName(c), c);
    for (const c of doc.configurations) if (!configurations.has(stackLabel(c))) configurations.set(stackLabel(c), c);
    for (const s of doc.samples) {
      const run = `${cellOf(s)}, ${s.client} run ${s.run}`;
      const earlier = runs.get(run);
      if (earlier) throw new Error(`${run} is in both ${earlier.file} and ${file}: merge sweeps of different cells, or leave one of the two out`);
      runs.set(run, { sample: s, file });
      const graph = graphs.get(cellOf(s));
      if (graph && graph.sha !== s.graphSha256) throw new Error(`${cellOf(s)}: ${graph.file} and ${file} replayed different graphs of the site (sha256 ${graph.sha.slice(0, 12)} and ${s.graphSha256.slice(0, 12)}), so their runs cannot make one cell`);
      if (!graph) graphs.set(cellOf(s), { sha: s.graphSha256, file });
    }
    if (doc.lantern) {
      if (engine && engine.name !== doc.lantern.engine) throw new Error(`Lantern's predictions in ${engine.file} come from ${engine.name}, those in ${file} from ${doc.lantern.engine}: merge predictions of one engine`);
      engine ??= { name: doc.lantern.engine, file };
      for (const c of doc.lantern.cells) if (!lantern.has(`${c.site}|${c.condition}`)) lantern.set(`${c.site}|${c.condition}`, c);
    }
  }
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
