import { describe, expect, it } from "vitest";
import { warmFacialCheck } from "./warm-facial-check";

const loaded = (name: string) => Symbol.for(name) in globalThis;

// loads the face models once (tens of seconds on a busy 2-core machine)
describe("warmFacialCheck", () => {
  it("loads the face models, and the OCR engine only for a signer who may show an ID card", async () => {
    await warmFacialCheck({ ocr: false });
    expect(loaded("firmaviva.faces.engine")).toBe(true);
    expect(loaded("firmaviva.faces.warm")).toBe(true);
    expect(loaded("firmaviva.ocr.engine")).toBe(false);
    await warmFacialCheck({ ocr: true });
    expect(loaded("firmaviva.ocr.engine")).toBe(true);
    expect(loaded("firmaviva.ocr.warm")).toBe(true);
  }, 600_000);
});
