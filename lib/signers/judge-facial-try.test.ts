import { describe, expect, it } from "vitest";
import { FaceError } from "@/lib/faces/face-error";
import { photographCard, type SpecimenCard } from "@/lib/id-documents/testing/make-specimen-card";
import { judgeFacialTry } from "./judge-facial-try";

// tesseract reads the card in its own thread while the frames are analysed: the answers must stay
// those of the card first, then the frames (OCR and face models: seconds per case, generous limits)
const card: SpecimenCard = { portrait: "person-a-obama/a1-id-portrait-413x531.jpg", docNumber: "45871236", unmarked: true };
// a JPEG's first bytes and nothing after: the decoder refuses it
const brokenFrame = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00]);
const brokenFrames = [0, 1, 2, 3, 4, 5, 6].map(() => brokenFrame);

describe("judgeFacialTry with an ID card", () => {
  it("a card with another number is refused even when the frames cannot be read", async () => {
    const judged = await judgeFacialTry({ frames: brokenFrames, reference: photographCard(card), referenceIsIdDocument: true, docId: "45871237", challenges: ["turn-left", "look-up"] });
    expect(judged).toEqual({ kind: "retry", reason: "id_document_wrong_number" });
  }, 600_000);

  it("a card with the signer's number lets the unreadable frames answer", async () => {
    const judging = judgeFacialTry({ frames: brokenFrames, reference: photographCard(card), referenceIsIdDocument: true, docId: card.docNumber, challenges: ["turn-left", "look-up"] });
    await expect(judging).rejects.toBeInstanceOf(FaceError);
    await expect(judging).rejects.toMatchObject({ reason: "INVALID_IMAGE" });
  }, 600_000);
});
