/**
 * A progress bar on stderr: counts, percentage, elapsed, ETA and what is running now. On a
 * terminal it redraws one line; elsewhere (CI, pipes) it prints a line per finished item.
 */
export class Progress {
  private done = 0;
  private failed = 0;
  private current = "";
  private inFlight: number | null = null;
  private readonly started = Date.now();
  private readonly tty = process.stderr.isTTY === true;

  constructor(private readonly total: number, private readonly label: string) {}

  working(what: string): void {
    this.current = what;
    this.draw();
  }

  /** How many items are under way at once, for work spread over parallel workers. */
  running(n: number): void {
    this.inFlight = n;
    this.draw();
  }

  finished(what: string, ok: boolean, note = ""): void {
    this.done++;
    if (!ok) this.failed++;
    if (!this.tty) process.stderr.write(`${this.label} ${this.done}/${this.total} ${ok ? "ok  " : "FAIL"} ${what}${note ? ` (${note})` : ""} ETA ${this.eta()}\n`);
    this.draw();
  }

  end(): void {
    if (this.tty) process.stderr.write("\n");
  }

  private eta(): string {
    if (this.done === 0) return "--:--";
    const perItem = (Date.now() - this.started) / this.done;
    return clock(perItem * (this.total - this.done));
  }

  private draw(): void {
    if (!this.tty) return;
    const width = 24;
    const filled = Math.round((this.done / Math.max(1, this.total)) * width);
    const bar = "#".repeat(filled) + "-".repeat(width - filled);
    const pct = Math.floor((this.done / Math.max(1, this.total)) * 100);
    const cols = process.stderr.columns ?? 100;
    const line = `${this.label} [${bar}] ${this.done}/${this.total} ${pct}% failed ${this.failed}${this.inFlight === null ? "" : ` running ${this.inFlight}`} elapsed ${clock(Date.now() - this.started)} ETA ${this.eta()} ${this.current}`;
    process.stderr.write(`\r${line.slice(0, cols - 1).padEnd(cols - 1)}`);
  }
}

function clock(ms: number): string {
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}
