import { EventEmitter } from "node:events";
import { readFileSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { extname } from "node:path";
import { findSiteFile } from "./site-files.js";
import { makeCertificate, type Certificate } from "./certificate.js";
import { hostDelayMs, readSiteConfig, type RouteConfig, type SiteConfig } from "./site-config.js";

const MIME: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".gif": "image/gif",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
  ".eot": "application/vnd.ms-fontobject",
  ".jpeg": "image/jpeg",
  ".avif": "image/avif",
  ".csv": "text/csv; charset=utf-8",
  ".xml": "application/xml",
  ".map": "application/json",
  ".pdf": "application/pdf",
  ".wasm": "application/wasm",
  ".webmanifest": "application/manifest+json",
  ".properties": "text/plain; charset=utf-8",
  ".ftl": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
};

export interface ServedRequest {
  scheme: "http" | "https";
  host: string;
  path: string;
  httpVersion: string;
  headers: Record<string, string | string[] | undefined>;
  status: number;
}

export interface RunningSite {
  config: SiteConfig;
  httpPort: number;
  httpsPort: number;
  certificate: Certificate;
  /** Every request answered so far, in arrival order. */
  requests: ServedRequest[];
  /** Emits "request" with a ServedRequest as each request arrives (before any delay). */
  events: EventEmitter;
  /** Chromium --host-resolver-rules that send the site's host names here and nothing anywhere else. */
  hostResolverRules(extra?: string[]): string;
  /** The bytes served for a URL of this site, as they left the server. */
  bodyOf(url: string): Buffer | undefined;
  close(): Promise<void>;
}

/**
 * Serves a site (site.json + hosts/<host>/..., plus any mounted folders) on 127.0.0.1:
 * one cleartext HTTP/1.1 server and one TLS server speaking HTTP/2 (and HTTP/1.1 by ALPN),
 * both virtual-hosting every host of the site, so Chromium sees a multi-origin page.
 */
export async function serveSite(siteDir: string): Promise<RunningSite> {
  const config = readSiteConfig(siteDir);
  const certificate = makeCertificate(Object.keys(config.hosts));
  const requests: ServedRequest[] = [];
  const events = new EventEmitter();
  const hanging = new Set<http.ServerResponse | http2.Http2ServerResponse>();

  const resolve = (host: string, path: string): { file?: string; route?: RouteConfig } => {
    const route = config.routes[`${host}${path}`] ?? config.routes[`${host}${path.split("?")[0]}`];
    let filePath: string;
    try {
      filePath = decodeURIComponent(route?.file ?? path.split("?")[0]!);
    } catch {
      return { route };
    }
    const file = findSiteFile(siteDir, config, host, filePath);
    return file ? { file, route } : { route };
  };

  const bodyOf = (url: string): Buffer | undefined => {
    const u = new URL(url);
    const { file, route } = resolve(u.hostname, u.pathname + u.search);
    if (route?.body !== undefined) return Buffer.from(route.body);
    return file ? readFileSync(file) : undefined;
  };

  const handle = (scheme: "http" | "https") =>
    (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) => {
      const host = String(req.headers[":authority"] ?? req.headers.host ?? "").replace(/:\d+$/, "");
      const path = req.url ?? "/";
      const { file, route } = resolve(host, path);
      const status = route?.status ?? (file || route?.body !== undefined ? 200 : 404);
      const served: ServedRequest = { scheme, host, path, httpVersion: req.httpVersion, headers: { ...req.headers }, status };
      requests.push(served);
      events.emit("request", served);
      if (route?.hang) {
        hanging.add(res);
        return;
      }
      const send = () => {
        const body = route?.body !== undefined ? Buffer.from(route.body) : file ? readFileSync(file) : Buffer.from("not found\n");
        const type = file ? MIME[extname(file)] ?? "application/octet-stream" : "text/plain; charset=utf-8";
        const headers: Record<string, string | string[]> = {
          "content-type": type,
          "content-length": String(body.length),
          "cache-control": file ? config.cacheControl : "no-store",
          ...(config.hosts[host]?.headers ?? {}),
          ...(route?.headers ?? {}),
        };
        res.writeHead(status, headers as http.OutgoingHttpHeaders);
        res.end(body);
      };
      const delay = route?.delayMs ?? hostDelayMs(config.hosts[host], path);
      if (delay > 0) setTimeout(send, delay);
      else send();
    };

  const plain = http.createServer(handle("http"));
  const secure = http2.createSecureServer({ key: certificate.key, cert: certificate.cert, allowHTTP1: true }, handle("https"));
  const listen = (server: http.Server | http2.Http2SecureServer) =>
    new Promise<number>((ok, fail) => {
      server.once("error", fail);
      server.listen(0, "127.0.0.1", () => ok((server.address() as AddressInfo).port));
    });
  const httpPort = await listen(plain);
  const httpsPort = await listen(secure);
  const sessions = new Set<http2.ServerHttp2Session>();
  secure.on("session", (s) => {
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
  });

  return {
    config,
    httpPort,
    httpsPort,
    certificate,
    requests,
    events,
    bodyOf,
    hostResolverRules(extra = []) {
      const rules = [...extra];
      for (const host of Object.keys(config.hosts)) {
        rules.push(`MAP ${host}:80 127.0.0.1:${httpPort}`, `MAP ${host}:443 127.0.0.1:${httpsPort}`);
      }
      rules.push("MAP * ~NOTFOUND", "EXCLUDE localhost");
      return rules.join(", ");
    },
    async close() {
      for (const res of hanging) res.destroy?.();
      for (const s of sessions) s.destroy();
      plain.closeAllConnections();
      await Promise.all([
        new Promise<void>((ok) => plain.close(() => ok())),
        new Promise<void>((ok) => secure.close(() => ok())),
      ]);
    },
  };
}
