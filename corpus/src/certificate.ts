import { execFileSync } from "node:child_process";
import { createHash, X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Certificate {
  key: string;
  cert: string;
  /** base64 SHA-256 of the SubjectPublicKeyInfo: what Chromium's --ignore-certificate-errors-spki-list takes. */
  spkiHash: string;
}

/** SPKI hash of a PEM certificate, in the form Chromium's --ignore-certificate-errors-spki-list expects. */
export function spkiHash(certPem: string): string {
  const spki = new X509Certificate(certPem).publicKey.export({ type: "spki", format: "der" });
  return createHash("sha256").update(spki).digest("base64");
}

/**
 * A fresh self-signed certificate for the given host names. Generated per use, never committed,
 * so no long-lived key exists that could be trusted by mistake.
 */
export function makeCertificate(hostNames: string[], days = 7): Certificate {
  if (hostNames.length === 0) throw new Error("makeCertificate: at least one host name is needed");
  const dir = mkdtempSync(join(tmpdir(), "pagepath-cert-"));
  try {
    const keyFile = join(dir, "key.pem");
    const certFile = join(dir, "cert.pem");
    const san = hostNames.map((h) => (/^[\d.]+$/.test(h) ? `IP:${h}` : `DNS:${h}`)).join(",");
    execFileSync(
      "openssl",
      [
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", keyFile, "-out", certFile, "-days", String(days),
        "-subj", `/CN=${hostNames[0]}`, "-addext", `subjectAltName=${san}`,
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    const cert = readFileSync(certFile, "utf8");
    return { key: readFileSync(keyFile, "utf8"), cert, spkiHash: spkiHash(cert) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
