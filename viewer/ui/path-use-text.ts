/** How the viewer names a run's paths and their shares of its bytes, and the colour each path has everywhere. */
import type { PathConfig, PathShare } from "@pagepath/results";
import { bytes } from "./format.js";

/** Path 0, 1, ...: apart from the runs' blue and orange, so a path segment never reads as another run. */
const PATH_COLORS = ["#38a169", "#805ad5", "#d53f8c", "#319795", "#b7791f", "#4a5568", "#e53e3e", "#718096"];

export function pathColor(path: number): string {
  return PATH_COLORS[path % PATH_COLORS.length]!;
}

/** "10 Mbit/s down, 5 up, RTT 20 ms, loss 1%": what the run's configuration says of the path. */
export function pathConfigText(p: PathConfig | undefined): string {
  if (!p) return "not in the run's network";
  const rate = p.trace ? "trace-driven rate" : p.downMbps === null ? "rate not known" : `${p.downMbps} Mbit/s down, ${p.upMbps ?? "?"} up`;
  const loss = p.loss ? `, loss ${+(p.loss * 100).toFixed(3)}%` : "";
  return `${rate}, RTT ${p.rttMs} ms${loss}`;
}

const share = (v: number | null) => (v === null ? "?" : `${(v * 100).toFixed(0)}%`);

/** One path's part: of the bytes down on the wire, and of the response bytes the servers sent where recorded. */
export function shareText(s: PathShare): string {
  const wire = s.wireBytesDown === null ? "bytes down not measured" : `${share(s.wireShare)} of the bytes down (${bytes(s.wireBytesDown)})`;
  return s.responseBytes === null ? wire : `${wire}, ${share(s.responseShare)} of the response bytes sent (${bytes(s.responseBytes)})`;
}

/** "path 0 82%, path 1 18%": the short form, from each path's share of the bytes down on the wire, path 0 first. */
export function sharesInBrief(wireShares: (number | null)[]): string {
  return wireShares.map((v, path) => `path ${path} ${share(v)}`).join(", ");
}
