import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { PdfError } from "@/lib/pdf/errors";
import { PkiError } from "@/lib/pki/errors";
import { TsaError } from "@/lib/tsa/errors";
import { deserializeError, serializeError } from "./task-errors";

/** What crosses the worker boundary (as structured-clone data) must come back as the same kind. */
const roundTrip = (error: unknown) => deserializeError(structuredClone(serializeError(error)));

describe("errors across the worker boundary", () => {
  it.each([
    ["PdfError", new PdfError("INVALID_PDF", { reason: "x" }), PdfError],
    ["PkiError", new PkiError("WRONG_PIN", "bad pin"), PkiError],
    ["TsaError", new TsaError("TSA_HTTP_ERROR", "The TSA answered HTTP 503"), TsaError],
    ["AppError", new AppError("PAGE_NOT_FOUND", "no page", "page"), AppError],
  ])("keeps a %s's class, name, code and message", (_name, error, type) => {
    const back = roundTrip(error);
    expect(back).toBeInstanceOf(type);
    expect(back.name).toBe(error.name);
    expect((back as { code?: string }).code).toBe((error as { code?: string }).code);
    expect(back.message).toBe(error.message);
  });

  it("recognizes a TsaError by name, as thrown by another bundle's copy of the class", () => {
    const foreign = Object.assign(new Error("The TSA answered HTTP 503"), { name: "TsaError", code: "TSA_HTTP_ERROR" });
    const back = roundTrip(foreign);
    expect(back).toBeInstanceOf(TsaError);
    expect((back as TsaError).code).toBe("TSA_HTTP_ERROR");
  });

  it("turns an unexpected error into a plain Error with its message", () => {
    const back = roundTrip(new TypeError("boom"));
    expect(back.constructor).toBe(Error);
    expect(back.message).toBe("boom");
  });
});
