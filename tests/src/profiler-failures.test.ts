import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import https from "node:https";
import net, { type AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { makeCertificate, type RunningSite, type ServedRequest } from "@pagepath/corpus";
import { PROFILE_DIR_PREFIX, readManifest, readRecording, recordingName } from "@pagepath/profiler";
import { runCli } from "./cli-run.js";
import { startFixture, tempDir } from "./fixture-profile.js";

/**
 * Kills the browser of this test's recordings: the main Chromium process whose profile lies in the
 * test's own temporary folder (so browsers of anything else running on the machine are left alone).
 */
function killProfilerBrowser(profileParent: string): number {
  const marker = `--user-data-dir=${join(profileParent, PROFILE_DIR_PREFIX)}`;
  const ps = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  let killed = 0;
  for (const line of ps.split("\n")) {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!m || !m[2]!.includes(marker) || m[2]!.includes("--type=")) continue;
    process.kill(Number(m[1]), "SIGKILL");
    killed++;
  }
  return killed;
}

async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok));
  const port = (s.address() as AddressInfo).port;
  await new Promise((ok) => s.close(ok));
  return port;
}

describe("a batch with failing pages", () => {
  let site: RunningSite;
  let badTls: https.Server;
  let out: string;
  let urlsFile: string;
  let rules: string;
  let killed = 0;
  let browserTmp: string;

  const urls = {
    cleartext: "http://ads.fixture.test/frame.html",
    dialog: "https://www.fixture.test/dialog.html",
    refused: "https://down.fixture.test/",
    dns: "https://nx.fixture.test/",
    tls: "https://badtls.fixture.test/",
    hang: "https://www.fixture.test/hang.html",
    crash: "https://www.fixture.test/crash.html",
  };

  before(async () => {
    site = await startFixture();
    site.events.on("request", (r: ServedRequest) => {
      // A moment after the request, so the document's own response is fully recorded first.
      if (r.path === "/kill-browser") setTimeout(() => (killed += killProfilerBrowser(browserTmp)), 300);
    });
    const cert = makeCertificate(["badtls.fixture.test"]); // not the SPKI Chromium is told to trust
    badTls = https.createServer({ key: cert.key, cert: cert.cert }, (_q, s) => s.end("never seen"));
    await new Promise<void>((ok) => badTls.listen(0, "127.0.0.1", ok));
    rules = site.hostResolverRules([
      `MAP down.fixture.test:443 127.0.0.1:${await closedPort()}`,
      `MAP badtls.fixture.test:443 127.0.0.1:${(badTls.address() as AddressInfo).port}`,
    ]);
    out = tempDir("batch");
    browserTmp = join(out, "tmp");
    mkdirSync(browserTmp);
    urlsFile = join(out, "urls.txt");
    writeFileSync(urlsFile, `# failing pages and one good one\n${Object.values(urls).join("\n")}\n`);
  });
  after(async () => {
    await site?.close();
    badTls?.close();
  });

  const profileArgs = () => [
    "profile", "--list", urlsFile, "--out", join(out, "recordings"),
    "--host-resolver-rules", rules,
    "--ignore-certificate-errors-spki-list", site.certificate.spkiHash,
    "--timeout-ms", "4000", "--quiet-ms", "500",
  ];

  it("records every page, marks the failures incomplete with their reason, and reports them at the end", async () => {
    const r = await runCli(profileArgs(), undefined, { TMPDIR: browserTmp });
    assert.equal(r.code, 1, `exit code 1 when some pages failed\n${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /profiled 7 URL\(s\): 2 complete, 5 incomplete, 0 failed, 0 skipped/);
    assert.equal(killed, 1, "the browser was killed mid-load exactly once");
    const reasons: Record<keyof typeof urls, RegExp> = {
      cleartext: /^$/,
      dialog: /^$/,
      refused: /ERR_CONNECTION_REFUSED/,
      dns: /ERR_NAME_NOT_RESOLVED/,
      tls: /ERR_CERT_/,
      hang: /load event did not fire within 4000 ms/,
      crash: /Chromium exited or was killed/,
    };
    for (const [key, url] of Object.entries(urls) as [keyof typeof urls, string][]) {
      const dir = join(out, "recordings", recordingName(url));
      const rec = readRecording(dir); // readable and valid even when incomplete
      const m = rec.manifest;
      const completes = key === "cleartext" || key === "dialog";
      assert.equal(m.status, completes ? "complete" : "incomplete", `${url}: ${m.reason}`);
      assert.match(m.reason ?? "", reasons[key], `${url}`);
      if (!completes) assert.ok(r.stdout.includes(url) && r.stdout.includes(m.reason!), `summary names ${url} and why`);
    }
    const cleartext = readRecording(join(out, "recordings", recordingName(urls.cleartext)));
    assert.equal(cleartext.archive.find((e) => e.url === urls.cleartext)?.response?.protocol, "http/1.1");
    const dialog = readRecording(join(out, "recordings", recordingName(urls.dialog)));
    const asked = dialog.events.filter((e) => e.method === "Page.javascriptDialogOpening").map((e) => e.params.type);
    assert.deepEqual(asked, ["alert", "confirm"], "both dialogs were answered and kept in the recording");
    assert.ok(dialog.archive.some((e) => e.url.endsWith("/img/logo.png") && e.body), "the page went on loading after the dialogs");
    const hang = readRecording(join(out, "recordings", recordingName(urls.hang)));
    assert.equal(hang.manifest.stoppedBy, "cap");
    assert.ok(hang.archive.some((e) => e.url.endsWith("/hang") && e.times.end === null), "the unanswered request is kept");
    assert.ok(hang.manifest.files.trace, "a page that never loads still has its trace");
    const crash = readRecording(join(out, "recordings", recordingName(urls.crash)));
    assert.equal(crash.manifest.stoppedBy, "browser-gone");
    assert.ok(crash.archive.some((e) => e.url.endsWith("/crash.html") && e.body), "what was recorded before the crash is kept");
  });

  it("resumes: complete recordings are skipped, failed ones are tried again", async () => {
    const r = await runCli(profileArgs(), undefined, { TMPDIR: browserTmp });
    assert.match(r.stdout, /2 skipped/);
    assert.match(r.stdout, /5 incomplete/);
    assert.equal(readManifest(join(out, "recordings", recordingName(urls.cleartext))).status, "complete");
  });
});

describe("bad command lines", () => {
  it("a malformed URL list names the file and line", async () => {
    const dir = tempDir("badlist");
    const file = join(dir, "urls.txt");
    writeFileSync(file, "https://ok.example/\n\nnot a url\nftp://x.example/\n");
    const r = await runCli(["profile", "--list", file, "--out", join(dir, "out")]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, new RegExp(`${file}:3: "not a url" is not a URL`));
    assert.match(r.stderr, new RegExp(`${file}:4: .*only http and https`));
  });

  it("a missing list file, a bad number and an unknown verb are refused with the argument named", async () => {
    const missing = await runCli(["profile", "--list", "/nonexistent/urls.txt"]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--list \/nonexistent\/urls.txt: cannot read: ENOENT/);
    const badNumber = await runCli(["profile", "https://a.example/", "--concurrency", "zero"]);
    assert.match(badNumber.stderr, /--concurrency "zero"/);
    const badNet = await runCli(["profile", "https://a.example/", "--network", "warp"]);
    assert.match(badNet.stderr, /--network "warp"/);
    const unknown = await runCli(["frobnicate"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown verb "frobnicate"/);
  });

  it("every verb answers --help", async () => {
    const top = await runCli(["--help"]);
    assert.equal(top.code, 0);
    const verbs = [...top.stdout.matchAll(/^  (\S+)\s{2,}/gm)].map((m) => m[1]!);
    assert.ok(verbs.includes("profile") && verbs.includes("har") && verbs.includes("validate"), verbs.join(","));
    for (const v of verbs) {
      const h = await runCli([v, "--help"]);
      assert.equal(h.code, 0, v);
      assert.match(h.stdout, new RegExp(`usage: pagepath ${v}`));
    }
  });

  it("validate names the file and the problem in a corrupt recording", async () => {
    const dir = join(tempDir("corrupt"), "rec");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(dir);
    writeFileSync(join(dir, "manifest.json"), '{"kind": "pagepath-recording", "schemaVersion": 1, "url": "x", "sta');
    const r = await runCli(["validate", dir]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, new RegExp(`INVALID  ${dir}/manifest.json: not valid JSON`));
  });
});
