export { benchProfiler, type ProfilerBenchResult } from "./profiler-overhead.js";
export { benchGraphBuild, type BuildBenchRow } from "./graph-build.js";
export { benchViewer, type ViewerOpenResult } from "./viewer-render.js";
export { benchNet, type NetBenchResult } from "./net-link.js";
export { benchReplay, type ReplayBenchResult, type ReplayBenchRow } from "./replay-server.js";
export { benchExperiment, type ExperimentBenchResult, type SweepThroughput } from "./experiment-sweep.js";
