import { constants } from "node:os";

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * Ends a sweep at once on Ctrl-C, SIGTERM or SIGHUP: `abandon` (synchronous) kills what the runs
 * under way started, then the process exits with 128 + the signal's number, and the exit runs the
 * topologies' and temporary folders' cleanups (atProcessEnd), Chromium's among them (puppeteer's
 * own listeners, which would close Chromium on SIGTERM and let the process go on, recording the
 * interrupted load as a run that failed, are off: profiler/src/chromium.ts). Returns a function
 * that uninstalls it.
 */
export function stopSweepOnSignal(message: string, abandon: () => void): () => void {
  const stop = (signal: NodeJS.Signals) => {
    process.stderr.write(`\n${signal === "SIGINT" ? "" : `${signal}: `}${message}\n`);
    abandon();
    process.exit(128 + constants.signals[signal]);
  };
  for (const s of SIGNALS) process.prependListener(s, stop);
  return () => SIGNALS.forEach((s) => process.off(s, stop));
}
