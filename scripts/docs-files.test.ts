import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { missingDocPaths, pathsNamedIn } from "./docs-files";

const root = path.resolve(__dirname, "..");

describe("the files the docs name", () => {
  it("exist, in docs/architecture.md and every other docs/*.md", () => {
    expect(missingDocPaths(root)).toEqual({});
  });

  it("docs/architecture.md names the files of its sequences (the check reads them)", () => {
    const named = pathsNamedIn(fs.readFileSync(path.join(root, "docs", "architecture.md"), "utf8"));
    expect(named).toEqual(expect.arrayContaining(["app/api/_stamp/sign-pdf-handler.ts", "lib/signers/run-facial-check.ts", "lib/server/worker-pools.ts"]));
  });

  it("fails on a renamed file: the doc that names it is reported, with the old path", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-docs-"));
    try {
      fs.mkdirSync(path.join(dir, "docs"));
      fs.mkdirSync(path.join(dir, "lib", "pdf"), { recursive: true });
      fs.writeFileSync(path.join(dir, "lib", "pdf", "sign-pdf.ts"), "export {};\n");
      fs.writeFileSync(path.join(dir, "docs", "map.md"), "The engine (`lib/pdf/sign-pdf.ts`), seen from `app/api/[token]/route.ts`.\n");
      fs.mkdirSync(path.join(dir, "app", "api", "[token]"), { recursive: true });
      fs.writeFileSync(path.join(dir, "app", "api", "[token]", "route.ts"), "export {};\n");
      expect(missingDocPaths(dir)).toEqual({});
      fs.renameSync(path.join(dir, "lib", "pdf", "sign-pdf.ts"), path.join(dir, "lib", "pdf", "sign-document.ts"));
      expect(missingDocPaths(dir)).toEqual({ "docs/map.md": ["lib/pdf/sign-pdf.ts"] });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
