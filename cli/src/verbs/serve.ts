import { existsSync } from "node:fs";
import { join } from "node:path";
import { fixtureDir, serveSite } from "@pagepath/corpus";
import { UsageError, type Verb } from "../verb.js";

export const serveVerb: Verb = {
  name: "serve",
  summary: "serve a fixture site on 127.0.0.1 under its own host names (HTTPS/HTTP2 and HTTP/1.1)",
  usage: `
usage: pagepath serve <fixture name | site directory>

Serves a site (a directory with site.json and hosts/<host name>/...; bundled ones: multi-origin,
rules) on 127.0.0.1 until interrupted, with a fresh certificate. Prints one JSON line with what a
browser needs to reach it: the entry URL, the ports, Chromium's --host-resolver-rules and the
certificate's SPKI hash for --ignore-certificate-errors-spki-list.
`,
  options: {},
  async run(_values, positionals) {
    if (positionals.length !== 1) throw new UsageError("expected one fixture name or site directory");
    const arg = positionals[0]!;
    const dir = existsSync(join(arg, "site.json")) ? arg : fixtureDir(arg);
    if (!existsSync(join(dir, "site.json"))) throw new UsageError(`${arg}: not a site directory (no site.json) nor a bundled fixture`);
    const site = await serveSite(dir);
    process.stdout.write(
      JSON.stringify({
        entry: site.config.entry,
        httpPort: site.httpPort,
        httpsPort: site.httpsPort,
        hostResolverRules: site.hostResolverRules(),
        spkiHash: site.certificate.spkiHash,
      }) + "\n",
    );
    await new Promise<void>((done) => {
      process.once("SIGINT", done);
      process.once("SIGTERM", done);
    });
    await site.close();
    return 0;
  },
};
