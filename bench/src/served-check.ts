import { connect as h2connect, type IncomingHttpHeaders } from "node:http2";
import { request } from "node:https";
import { connect as tlsConnect } from "node:tls";

export interface ServedFile {
  path: string;
  mimeType: string;
  body: Buffer;
}

interface Response {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Fetches every file from ADDRESS:443 as `origin` (SNI and Host) and throws unless each comes
 * back 200 with the same bytes and MIME type, so that both servers are measured doing the same
 * work. Returns the first file's response headers, for the record.
 */
export async function checkServedFiles(label: string, protocol: "http1" | "h2", address: string, origin: string, files: ServedFile[]): Promise<IncomingHttpHeaders> {
  const host = new URL(origin).hostname;
  const responses = protocol === "h2" ? await getH2(address, host, files) : await Promise.all(files.map((f) => getH1(address, host, f.path)));
  files.forEach((f, i) => {
    const r = responses[i]!;
    const where = `${label} (${protocol}, ${address}) ${f.path}`;
    if (r.status !== 200) throw new Error(`${where}: status ${r.status}, expected 200`);
    if (!r.body.equals(f.body)) throw new Error(`${where}: ${r.body.length} bytes that differ from the ${f.body.length} bytes written`);
    const type = String(r.headers["content-type"] ?? "").split(";")[0]!.trim();
    if (type !== f.mimeType) throw new Error(`${where}: content-type ${JSON.stringify(type)}, expected ${f.mimeType}`);
  });
  return responses[0]!.headers;
}

function getH1(address: string, host: string, path: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const createConnection = () => tlsConnect({ host: address, port: 443, servername: host, ALPNProtocols: ["http/1.1"], rejectUnauthorized: false });
    const req = request({ path, headers: { host }, createConnection }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`no response from ${address} for ${path} in 10 s`)));
    req.on("error", reject);
    req.end();
  });
}

async function getH2(address: string, host: string, files: ServedFile[]): Promise<Response[]> {
  // Connect to the server's address while the authority and SNI stay the recorded origin.
  const session = h2connect(`https://${host}`, {
    createConnection: () => tlsConnect({ host: address, port: 443, servername: host, ALPNProtocols: ["h2"], rejectUnauthorized: false }),
  });
  const failed = new Promise<never>((_, reject) => session.on("error", reject));
  try {
    return await Promise.race([failed, Promise.all(files.map((f) => getOnSession(session, f.path)))]);
  } finally {
    session.destroy();
  }
}

function getOnSession(session: ReturnType<typeof h2connect>, path: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ":path": path });
    const chunks: Buffer[] = [];
    let headers: IncomingHttpHeaders = {};
    stream.on("response", (h) => (headers = h));
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => resolve({ status: Number(headers[":status"] ?? 0), headers, body: Buffer.concat(chunks) }));
    stream.on("error", reject);
    stream.setTimeout(10_000, () => stream.destroy(new Error(`no response for ${path} in 10 s`)));
  });
}
