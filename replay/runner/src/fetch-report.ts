/**
 * pagepath-fetch's report of its responses (docs/formats/browser-report.md, "pagepath-fetch"),
 * as it and pagepath-sim's fetch mode print it, and the check both callers make of it.
 */

export interface FetchedResponse {
  target: string;
  status: number | null;
  bytes: number;
  startUs: number | null;
  endUs: number | null;
}

/**
 * Why a fetch of `expectedBytes` in all does not count, or null when it does: a bulk transfer's
 * time means something only if every response came back whole with status 200.
 */
export function incompleteFetch(responses: readonly FetchedResponse[], expectedBytes: number): string | null {
  const got = responses.reduce((sum, r) => sum + r.bytes, 0);
  if (responses.every((r) => r.status === 200) && got === expectedBytes) return null;
  return `statuses ${responses.map((r) => r.status ?? "none").join(",")} and ${got} bytes of ${expectedBytes}`;
}
