export { benchProfiler, type ProfilerBenchResult } from "./profiler-overhead.js";
export { median, quantile } from "./stats.js";
export { benchGraphBuild, type BuildBenchRow } from "./graph-build.js";
