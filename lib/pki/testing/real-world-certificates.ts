import fs from "node:fs";
import path from "node:path";
import { readSignedData } from "@/lib/pki/read-signed-data";
import { fixturePath } from "@/test/fixtures-dir";

/** Every distinct certificate the CMSes of the EU DSS test files (test/fixtures/pdfs/real-world) carry: other CAs' encodings. */
export function realWorldCertificates(): Uint8Array[] {
  const folder = fixturePath("pdfs/real-world");
  const found = new Map<string, Uint8Array>();
  for (const file of fs.readdirSync(folder).filter((name) => name.endsWith(".pdf"))) {
    const text = fs.readFileSync(path.join(folder, file)).toString("latin1");
    for (const match of text.matchAll(/\/Contents\s*<([0-9A-Fa-f\s]{400,})>/g)) {
      try {
        for (const der of readSignedData(new Uint8Array(Buffer.from(match[1].replace(/\s/g, ""), "hex"))).certificatesDer) found.set(Buffer.from(der).toString("hex"), der);
      } catch {
        // not a readable CMS
      }
    }
  }
  return [...found.values()];
}
