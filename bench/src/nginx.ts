import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { childrenOf } from "./process-cpu.js";

export const NGINX = process.env.PAGEPATH_NGINX ?? "/usr/sbin/nginx";

export interface NginxSite {
  /** A fresh folder for the configuration, pid file and temp paths; never the system's. */
  dir: string;
  address: string;
  http2: boolean;
  docroot: string;
  cert: string;
  key: string;
  /** Extension (no dot) -> MIME type, so that nginx sends the types the replay server sends. */
  types: Map<string, string>;
}

export interface RunningNginx {
  /** The master process; its workers are its children. */
  pid: number;
  stop(): Promise<void>;
}

function config(site: NginxSite): string {
  const types = [...site.types].map(([ext, mime]) => `    ${mime} ${ext};`).join("\n");
  return `daemon off;
master_process on;
# The replay server runs its TCP origins on one thread: give nginx as many cores.
worker_processes 1;
pid nginx.pid;
lock_file nginx.lock;
error_log stderr warn;
${process.getuid?.() === 0 ? "# As root, workers would otherwise switch to nobody, who cannot read a private temp folder.\nuser root;\n" : ""}events { worker_connections 1024; }
http {
  types {
${types}
  }
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  tcp_nopush on;
  # nginx closes a connection after 1,000 requests by default; the replay server does not.
  keepalive_requests 100000000;
  keepalive_timeout 300s;
  client_body_temp_path tmp/body;
  proxy_temp_path tmp/proxy;
  fastcgi_temp_path tmp/fastcgi;
  uwsgi_temp_path tmp/uwsgi;
  scgi_temp_path tmp/scgi;
  server {
    listen ${site.address}:443 ssl${site.http2 ? " http2" : ""};
    # nginx 1.22 leaves TLS 1.3 off by default; the replay server (rustls) negotiates it.
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_certificate ${site.cert};
    ssl_certificate_key ${site.key};
    root ${site.docroot};
  }
}
`;
}

/** nginx in the foreground as our child; resolves once it accepts connections on ADDRESS:443. */
export async function startNginx(site: NginxSite): Promise<RunningNginx> {
  // Otherwise a leftover listener would pass for nginx while nginx retries its bind and gives up.
  if (await accepts(site.address, 443)) throw new Error(`something already listens on ${site.address}:443; stop it first (ss -ltnp 'sport = 443')`);
  mkdirSync(join(site.dir, "tmp"), { recursive: true });
  const conf = join(site.dir, "nginx.conf");
  writeFileSync(conf, config(site));
  const child = spawn(NGINX, ["-p", site.dir + "/", "-c", conf, "-e", "stderr"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((ok) => child.on("close", (code) => ok(code)));
  const failed = new Promise<never>((_, fail) => {
    child.on("error", (e) => fail(new Error(`cannot run ${NGINX} (Debian: apt-get install nginx-light): ${e.message}`)));
    void exited.then((code) => fail(new Error(`nginx exited with ${code} on ${site.address}:443: ${stderr.trim()}`)));
  });
  failed.catch(() => undefined);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // The workers are the master's children: if it has to be killed they would keep the port.
    const workers = childrenOf(child.pid!);
    child.kill("SIGTERM");
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      for (const pid of workers) tryKill(pid);
    }, 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const listening = await Promise.race([waitForPort(site.address, 443, 10_000, () => child.exitCode !== null), failed]);
    if (!listening) await failed;
  } catch (e) {
    await stop();
    throw e;
  }
  return { pid: child.pid!, stop };
}

function tryKill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

async function waitForPort(host: string, port: number, timeoutMs: number, exited: () => boolean): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  // Once nginx has exited, its own error wins the race; stop polling quietly.
  while (!exited()) {
    if (await accepts(host, port)) return true;
    if (Date.now() > deadline) throw new Error(`nginx does not accept connections on ${host}:${port} after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise<boolean>((ok) => {
    const socket = connect({ host, port }, () => {
      socket.destroy();
      ok(true);
    });
    socket.on("error", () => ok(false));
  });
}
