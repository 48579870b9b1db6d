import { describe, expect, it } from "vitest";
import { QUALITY_BANNER, buildStampContent, type StampData } from "@/lib/stamp/build-stamp-content";
import { StampError } from "@/lib/stamp/errors";
import { formatStampDate } from "@/lib/stamp/format-stamp-date";

const base: StampData = {
  names: "María José",
  lastNames: "Núñez Güemes",
  personIdType: "DNI",
  personId: "45678912",
  nationality: "PER",
  signType: "agente",
  txToken: "AbCdEfGhIj0123456789",
  signedAt: new Date("2026-11-23T00:46:04.900Z"),
  environment: "production",
  verifyUrl: "https://firma.example.com/verificar/AbCdEfGhIj0123456789",
};

describe("buildStampContent", () => {
  it("lists the signer data in order, in production without a banner", () => {
    expect(buildStampContent(base).lines).toEqual([
      { text: "María José Núñez Güemes", style: "title" },
      { text: "DNI: 45678912 · Nacionalidad: PER", style: "body" },
      { text: "Fecha: 22/11/2026 19:46:04 -05:00", style: "body" },
      { text: "Firma: agente", style: "body" },
      { text: "Id: AbCdEfGhIj0123456789", style: "body" },
    ]);
  });

  it("puts the quality banner first in APP_ENV=quality", () => {
    const { lines } = buildStampContent({ ...base, environment: "quality" });
    expect(lines[0]).toEqual({ text: "AMBIENTE DE CALIDAD – SIN VALOR LEGAL", style: "banner" });
    expect(QUALITY_BANNER).toBe("AMBIENTE DE CALIDAD – SIN VALOR LEGAL");
  });

  it.each<[Partial<StampData>, string]>([
    [{ signType: "agente" }, "Firma: agente"],
    [{ signType: "digital" }, "Firma: digital"],
    [{ signType: "otp", email: "ana.peña@example.com" }, "Firma: OTP ana.peña@example.com"],
    [{ signType: "otp" }, "Firma: OTP"],
    [{ signType: "otp", email: "  " }, "Firma: OTP"],
    // the e-mail belongs to otp only
    [{ signType: "agente", email: "ana@example.com" }, "Firma: agente"],
  ])("sign type line for %o", (patch, expected) => {
    expect(buildStampContent({ ...base, ...patch }).lines.map((l) => l.text)).toContain(expected);
  });

  it("shows CE and PAS documents and the nationality as given", () => {
    const { lines } = buildStampContent({ ...base, personIdType: "CE", personId: "001234567", nationality: "VEN" });
    expect(lines[1].text).toBe("CE: 001234567 · Nacionalidad: VEN");
  });

  it("flattens line breaks and control characters in the data so they cannot forge stamp or QR lines", () => {
    const { lines, qrText } = buildStampContent(
      { ...base, names: "Ana\nId: FORGED", lastNames: "\tPérez\u200b  Soto\r\n" },
      { type: "auto" },
    );
    expect(lines[0].text).toBe("Ana Id: FORGED Pérez Soto");
    expect(qrText!.split("\n")).toHaveLength(lines.length + 1);
  });

  it("auto QR text is the stamp lines plus the verification URL, one per line", () => {
    const { qrText } = buildStampContent({ ...base, environment: "quality", signType: "otp", email: "a@b.pe" }, { type: "auto" });
    expect(qrText).toBe(
      [
        "AMBIENTE DE CALIDAD – SIN VALOR LEGAL",
        "María José Núñez Güemes",
        "DNI: 45678912 · Nacionalidad: PER",
        "Fecha: 22/11/2026 19:46:04 -05:00",
        "Firma: OTP a@b.pe",
        "Id: AbCdEfGhIj0123456789",
        "https://firma.example.com/verificar/AbCdEfGhIj0123456789",
      ].join("\n"),
    );
  });

  it("text QR keeps qr_text byte for byte, CRLF, tabs and trailing spaces included", () => {
    const text = "Línea 1\r\nLínea 2 ¿ñ?\n\thttps://example.com/x?a=1&b=2  \n";
    expect(buildStampContent(base, { type: "text", text }).qrText).toBe(text);
  });

  it("has no QR text when no QR is requested", () => {
    expect(buildStampContent(base).qrText).toBeNull();
  });

  it("refuses an empty qr_text", () => {
    expect(() => buildStampContent(base, { type: "text", text: "" })).toThrow(StampError);
  });
});

describe("formatStampDate", () => {
  it.each<[string, string | undefined, string]>([
    ["2026-11-23T00:46:04Z", undefined, "22/11/2026 19:46:04 -05:00"],
    ["2026-11-23T00:46:04Z", "America/Lima", "22/11/2026 19:46:04 -05:00"],
    ["2026-11-23T00:46:04Z", "UTC", "23/11/2026 00:46:04 +00:00"],
    ["2026-01-15T12:00:00Z", "Asia/Kathmandu", "15/01/2026 17:45:00 +05:45"],
    ["2026-01-15T12:00:00Z", "America/St_Johns", "15/01/2026 08:30:00 -03:30"],
    // daylight saving: the offset in force at that instant, not the zone's standard one
    ["2026-07-01T12:00:00Z", "Europe/Madrid", "01/07/2026 14:00:00 +02:00"],
    ["2026-01-01T12:00:00Z", "Europe/Madrid", "01/01/2026 13:00:00 +01:00"],
    ["2026-01-01T03:00:00Z", "America/Santiago", "01/01/2026 00:00:00 -03:00"],
    // midnight prints as 00, never 24
    ["2026-03-01T05:00:00Z", "America/Lima", "01/03/2026 00:00:00 -05:00"],
    ["2026-03-01T04:59:59.999Z", "America/Lima", "28/02/2026 23:59:59 -05:00"],
  ])("%s in %s", (iso, zone, expected) => {
    expect(formatStampDate(new Date(iso), zone)).toBe(expected);
  });

  it("rejects an unknown zone loudly (configuration error)", () => {
    expect(() => formatStampDate(new Date(), "Mars/Olympus")).toThrow(RangeError);
  });
});
