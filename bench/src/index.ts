export { benchProfiler, type ProfilerBenchResult } from "./profiler-overhead.js";
export { benchGraphBuild, type BuildBenchRow } from "./graph-build.js";
export { benchViewer, type ViewerOpenResult } from "./viewer-render.js";
export { benchNet, type NetBenchResult } from "./net-link.js";
export { benchReplay, type ReplayBenchResult, type ReplayBenchRow } from "./replay-server.js";
export { benchExperiment, type ExperimentBenchResult, type SweepThroughput } from "./experiment-sweep.js";
export { benchSchedulers, type SchedulersBenchResult } from "./schedulers.js";
export { type DecisionCost } from "./scheduler-cost.js";
export { PATH_ONLY, PATH_ONLY_FLOOR, REFERENCE as THROUGHPUT_REFERENCE, type SchedulerThroughput, type ThroughputResult } from "./scheduler-throughput.js";
