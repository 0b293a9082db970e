/**
 * Cleanups that must run however this process ends: at exit (normal end, process.exit, an uncaught
 * error) and on SIGINT, SIGTERM or SIGHUP. Node's default on those signals is to die at once,
 * without an exit event, and Ctrl-C in a terminal reaches every process of the foreground group:
 * `node --test` and each test file's own process alike.
 */

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const cleanups = new Set<() => void>();
let installed = false;

/**
 * Runs `cleanup` (synchronous: on a signal there is no later) once when the process ends; the
 * returned function cancels it, for a caller that cleaned up itself. Cleanups run newest first.
 */
export function atProcessEnd(cleanup: () => void): () => void {
  install();
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

function runCleanups(): void {
  for (const cleanup of [...cleanups].reverse()) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch (e) {
      process.stderr.write(`cleanup at process end failed: ${(e as Error).message}\n`);
    }
  }
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on("exit", runCleanups);
  for (const signal of SIGNALS) {
    const onSignal = () => {
      // Another listener (puppeteer's, a verb's that finishes its work first) decides what the
      // signal means; when it exits, the exit event runs the cleanups. Alone, we clean up and die
      // of the signal, as the process would have without us.
      if (process.listenerCount(signal) > 1) return;
      runCleanups();
      process.off(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
