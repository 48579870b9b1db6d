import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { analyzeFace } from "@/lib/faces/analyze-face";
import { fixturePath } from "@/test/fixtures-dir";
import { analyzedReference } from "./analyzed-references";

const photo = (file: string) => new Uint8Array(fs.readFileSync(fixturePath("faces", file)));

// loads the face models once (tens of seconds on a busy 2-core machine)
describe("analyzedReference", () => {
  it("gives the try the analysis made at the ticket, equal to a fresh one, for two minutes", async () => {
    const registry = photo("person-a-obama/a1-id-portrait-413x531.jpg");
    const now = Date.now();
    const atTicket = analyzedReference(registry, now);
    expect(analyzedReference(new Uint8Array(registry), now + 60_000)).toBe(atTicket);
    expect((await atTicket).embedding).toEqual((await analyzeFace(registry, { multipleFaces: "largest" })).embedding);
    // a ticket lives 90 s: later, the photo is analysed again
    const later = analyzedReference(registry, now + 121_000);
    expect(later).not.toBe(atTicket);
    // another photo is another analysis
    const other = analyzedReference(photo("person-a-obama/a2-selfie-like-480x640.jpg"), now + 121_000);
    expect(other).not.toBe(later);
    await Promise.all([later, other]);
  }, 600_000);

  it("keeps no failed analysis: a photo without a face is analysed again (and fails again)", async () => {
    const noFace = photo("no-face/no-face-chandelier-480x640.jpg");
    const first = analyzedReference(noFace);
    await expect(first).rejects.toMatchObject({ reason: "NO_FACE" });
    const second = analyzedReference(noFace);
    expect(second).not.toBe(first);
    await expect(second).rejects.toMatchObject({ reason: "NO_FACE" });
  }, 600_000);
});
