/**
 * A small HTTP/2 client for tests: opens one connection, sends every request at once, and prints
 * one JSON line with each response's completion time, in the order the responses completed.
 * Run inside a topology's client namespace: node h2-fetch.js ADDRESS HOST PATH[@PRIORITY]...
 */
import { createHash } from "node:crypto";
import { connect } from "node:http2";

const [address, host, ...targets] = process.argv.slice(2);
if (!address || !host || targets.length === 0) {
  process.stderr.write("usage: h2-fetch ADDRESS HOST PATH[@PRIORITY]...\n");
  process.exit(2);
}
const start = performance.now();
const session = connect(`https://${address}`, { servername: host, rejectUnauthorized: false });
session.on("error", (e) => {
  process.stderr.write(`h2-fetch: ${e.message}\n`);
  process.exit(1);
});
const done = targets.map(
  (t) =>
    new Promise<object>((resolve, reject) => {
      const [path, priority] = t.split("@");
      const req = session.request({ ":path": path, ":authority": host, ...(priority ? { priority } : {}) });
      const hash = createHash("sha256");
      let bytes = 0;
      let status = 0;
      req.on("response", (h) => (status = Number(h[":status"])));
      req.on("data", (d: Buffer) => {
        bytes += d.length;
        hash.update(d);
      });
      req.on("end", () => resolve({ path, status, bytes, sha256: hash.digest("hex"), endMs: performance.now() - start }));
      req.on("error", reject);
      req.end();
    }),
);
const results = (await Promise.all(done)) as { endMs: number }[];
results.sort((a, b) => a.endMs - b.endMs);
process.stdout.write(JSON.stringify({ protocol: session.alpnProtocol, responses: results }) + "\n");
session.close();
