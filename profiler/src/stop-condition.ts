import type { StopPolicy } from "./recording.js";

export type StopDecision = { stop: false; wakeAt: number } | { stop: true; by: "quiet" | "cap" };

/**
 * When to stop recording a page, as PCP did: after the load event, once the network has been quiet
 * for policy.quietMs with nothing in flight, or at policy.capMs after start whatever happens.
 * Pure: the caller feeds it events and the clock, and sleeps until wakeAt.
 */
export class StopCondition {
  private inFlight = new Set<string>();
  private loadAt: number | null = null;
  private lastActivity: number;

  constructor(private readonly policy: StopPolicy, private readonly startedAt: number) {
    this.lastActivity = startedAt;
  }

  requestStarted(id: string, now: number): void {
    this.inFlight.add(id);
    this.lastActivity = now;
  }

  requestEnded(id: string, now: number): void {
    this.inFlight.delete(id);
    this.lastActivity = now;
  }

  loadFired(now: number): void {
    this.loadAt ??= now;
    this.lastActivity = Math.max(this.lastActivity, now);
  }

  get loaded(): boolean {
    return this.loadAt !== null;
  }

  get pending(): number {
    return this.inFlight.size;
  }

  decide(now: number): StopDecision {
    const cap = this.startedAt + this.policy.capMs;
    if (now >= cap) return { stop: true, by: "cap" };
    if (this.loadAt === null || this.inFlight.size > 0) return { stop: false, wakeAt: cap };
    const quietUntil = this.lastActivity + this.policy.quietMs;
    if (now >= quietUntil) return { stop: true, by: "quiet" };
    return { stop: false, wakeAt: Math.min(quietUntil, cap) };
  }
}
