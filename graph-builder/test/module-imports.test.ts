import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { scanImportMap, scanScripts } from "../src/html-scripts.js";
import { parseImportMap, resolveSpecifier, staticImportSpecifiers } from "../src/module-imports.js";

describe("a module's static imports, as the browser finds them in its source", () => {
  it("finds import and re-export forms, and skips import(), import.meta and comments", () => {
    const source = [
      'import def from "./a.mjs";',
      "import { x, y as z } from './b.mjs'",
      'import * as ns from "lib";',
      'import "./side-effect.mjs";',
      'export * from "./c.mjs";',
      'export { w } from "./d.mjs";',
      'export * as all from "./e.mjs";',
      '// import "./commented.mjs";',
      '/* import "./block-commented.mjs"; */',
      'const later = import("./dynamic.mjs");',
      "const here = import.meta.url;",
      'const s = "http://example.test/path";',
      "function f() {}",
      'import {\n  multi,\n  line,\n} from "./f.mjs";',
    ].join("\n");
    assert.deepEqual(staticImportSpecifiers(source), ["./a.mjs", "./b.mjs", "lib", "./side-effect.mjs", "./c.mjs", "./d.mjs", "./e.mjs", "./f.mjs"]);
  });

  it("resolves relative, absolute and mapped specifiers, and refuses an unmapped bare one", () => {
    const map = parseImportMap('{"imports": {"lib": "/m/lib.mjs", "pkg/": "https://cdn.test/pkg/", "pkg/special": "/special.mjs"}}', "https://site.test/dir/page.html");
    const at = "https://cdn.test/m/app.mjs";
    assert.equal(resolveSpecifier("./b.mjs", at, map), "https://cdn.test/m/b.mjs");
    assert.equal(resolveSpecifier("../up.mjs", at, map), "https://cdn.test/up.mjs");
    assert.equal(resolveSpecifier("/root.mjs", at, map), "https://cdn.test/root.mjs");
    assert.equal(resolveSpecifier("https://other.test/x.mjs", at, map), "https://other.test/x.mjs");
    assert.equal(resolveSpecifier("lib", at, map), "https://site.test/m/lib.mjs", "an address is relative to the document, not the module");
    assert.equal(resolveSpecifier("pkg/util.mjs", at, map), "https://cdn.test/pkg/util.mjs");
    assert.equal(resolveSpecifier("pkg/special", at, map), "https://site.test/special.mjs", "an exact entry wins over a prefix");
    assert.equal(resolveSpecifier("unmapped", at, map), null);
  });

  it("reads the document's import map, and an invalid one as none", () => {
    const html = '<script type="importmap">{"imports": {"lib": "./lib.mjs"}}</script><script type=module src=app.mjs></script>';
    assert.deepEqual([...scanImportMap(html, "https://site.test/a/")], [["lib", "https://site.test/a/lib.mjs"]]);
    assert.deepEqual([...scanImportMap('<script type="importmap">{not json</script>', "https://site.test/")], []);
  });

  it("counts import maps, JSON-LD and templates as data blocks, not scripts", () => {
    const html = [
      '<script type="importmap">{}</script>',
      '<script type="application/ld+json">{"@context": "https://schema.org"}</script>',
      '<script type="text/template"><p>x</p></script>',
      '<script type="text/javascript">run()</script>',
      "<script type=module src=m.mjs></script>",
    ].join("\n");
    assert.deepEqual(scanScripts(html, "https://site.test/").map((s) => [s.type, s.line]), [["inline", 3], ["module", 4]]);
  });
});
