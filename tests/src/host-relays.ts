import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import type { RunningSite } from "@pagepath/corpus";

export interface HostRelays {
  /** Host-resolver rules sending each host's HTTPS to its relay; they go before the site's own. */
  rules: string[];
  /** "127.0.0.1:port" each host is reached at, as Chromium reports the remote address. */
  address: Map<string, string>;
  close(): Promise<void>;
}

/**
 * Puts each host of a fixture site behind its own TCP relay to the site's one HTTPS port, as if
 * each were its own server. Served from one address with one certificate, the hosts would all
 * share one HTTP/2 connection: Chromium pools origins whose address and certificate match.
 */
export async function relayEachHost(site: RunningSite): Promise<HostRelays> {
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const address = new Map<string, string>();
  const close = async (): Promise<void> => {
    for (const s of sockets) s.destroy();
    await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
  };
  try {
    for (const host of Object.keys(site.config.hosts)) {
      const server = createServer((client) => {
        const upstream = connect(site.httpsPort, "127.0.0.1");
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s));
        }
        client.on("error", () => upstream.destroy());
        upstream.on("error", () => client.destroy());
        client.pipe(upstream).pipe(client);
      });
      servers.push(server);
      await new Promise<void>((ok, fail) => server.once("error", fail).listen(0, "127.0.0.1", ok));
      address.set(host, `127.0.0.1:${(server.address() as AddressInfo).port}`);
    }
  } catch (e) {
    await close();
    throw e;
  }
  return { rules: [...address].map(([host, at]) => `MAP ${host}:443 ${at}`), address, close };
}
