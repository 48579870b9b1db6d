import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { analyzeFace } from "@/lib/faces/analyze-face";
import { fixturePath } from "@/test/fixtures-dir";
import { analyzedReference } from "./analyzed-references";
import { analyzeFacialFrame, analyzedFrame } from "./analyzed-frames";
import { checkedIdCard, readIdDocumentAhead } from "./checked-id-cards";

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

describe("analyzedFrame", () => {
  it("a frame sent ahead is the analysis the try finds, equal to the liveness check's own, and apart from the same bytes as a reference", async () => {
    const frame = photo("person-a-obama/a2-selfie-like-480x640.jpg");
    const now = Date.now();
    expect(await analyzeFacialFrame({ frame })).toEqual({ face: true });
    const ahead = analyzedFrame(new Uint8Array(frame), now);
    expect(analyzedFrame(frame, now + 60_000)).toBe(ahead);
    expect((await ahead).embedding).toEqual((await analyzeFace(frame, { multipleFaces: "reject" })).embedding);
    // the same picture as a reference is analysed by the reference's rules (largest face), on its own
    expect(analyzedReference(frame, now)).not.toBe(ahead);
  }, 600_000);

  it("keeps a frame's own verdict (no face), not an engine failure; an undecodable frame is the client's error", async () => {
    const noFace = photo("no-face/no-face-chandelier-480x640.jpg");
    expect(await analyzeFacialFrame({ frame: noFace })).toEqual({ face: false });
    const kept = analyzedFrame(noFace);
    expect(analyzedFrame(noFace)).toBe(kept);
    await expect(kept).rejects.toMatchObject({ reason: "NO_FACE" });
    await expect(analyzeFacialFrame({ frame: new Uint8Array([0xff, 0xd8, 0xff, 0, 1, 2]) })).rejects.toMatchObject({ reason: "INVALID_IMAGE" });
  }, 600_000);
});

describe("checkedIdCard", () => {
  it("a card's verdict is kept by its bytes and the number it must bear: the try finds the one read ahead, another number is read again", async () => {
    // a selfie is no card: refused before any OCR, and a refusal is a verdict on the photo
    const notACard = photo("person-a-obama/a2-selfie-like-480x640.jpg");
    const now = Date.now();
    const ahead = checkedIdCard(notACard, "42427457", now);
    expect(await ahead).toEqual({ ok: false, reason: "id_document_not_a_card" });
    expect(checkedIdCard(new Uint8Array(notACard), "42427457", now + 60_000)).toBe(ahead);
    expect(await readIdDocumentAhead({ idDocument: notACard, docId: "42427457" })).toEqual({ received: true });
    // the verdict depends on the number: for another signer's number the photo is read again
    const otherNumber = checkedIdCard(notACard, "71644607", now);
    expect(otherNumber).not.toBe(ahead);
    // and on the bytes: another photo is another reading
    const otherPhoto = checkedIdCard(photo("no-face/no-face-chandelier-480x640.jpg"), "42427457", now);
    expect(otherPhoto).not.toBe(ahead);
    await Promise.all([otherNumber, otherPhoto]);
  }, 600_000);
});
