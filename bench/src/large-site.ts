import { mkdirSync, writeFileSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import { fixtureDir } from "@pagepath/corpus";

/**
 * A generated page with `images` images, scripts and style sheets over two origins, written as a
 * fixture site directory, so benchmarks can profile a page far bigger than the hand-made fixtures.
 */
export function writeLargeSite(dir: string, images: number, scripts: number, sheets: number): string {
  const www = join(dir, "hosts", "www.large.test");
  const cdn = join(dir, "hosts", "cdn.large.test");
  mkdirSync(www, { recursive: true });
  mkdirSync(cdn, { recursive: true });
  copyFileSync(join(fixtureDir("multi-origin"), "hosts", "static.fixture.test", "img", "logo.png"), join(cdn, "i.png"));
  writeFileSync(join(cdn, "s.js"), "window.n = (window.n || 0) + 1; for (var i = 0, s = 0; i < 20000; i++) s += i;\n");
  writeFileSync(join(cdn, "c.css"), "p { margin: 2px; } img { width: 8px; height: 8px; }\n");
  const html = [
    "<!doctype html><html><head><title>large</title>",
    ...Array.from({ length: sheets }, (_, i) => `<link rel="stylesheet" href="https://cdn.large.test/c.css?${i}">`),
    "</head><body>",
    ...Array.from({ length: scripts }, (_, i) => `<p>block ${i}</p><script src="https://cdn.large.test/s.js?${i}"></script>`),
    ...Array.from({ length: images }, (_, i) => `<img src="https://cdn.large.test/i.png?${i}" alt="">`),
    "</body></html>",
  ].join("\n");
  writeFileSync(join(www, "index.html"), html);
  writeFileSync(
    join(dir, "site.json"),
    JSON.stringify({ description: "generated benchmark page", entry: "https://www.large.test/index.html", hosts: { "www.large.test": { role: "main" }, "cdn.large.test": { role: "static" } }, routes: {} }),
  );
  return dir;
}
