import { describe, expect, it } from "vitest";
import { formatExpiry, renderSigningMessage } from "./render-signing-message";

describe("renderSigningMessage", () => {
  it("writes the link, description, organization and expiry in the signer's offset", () => {
    const message = renderSigningMessage({
      organizationName: "Acme <SAC>",
      description: "Contrato 2026",
      link: "https://firmas.example/ui/signature_processes/abc",
      linkExpiresAt: new Date("2026-03-01T03:30:00Z"),
      tz: "-05:00",
    });
    expect(message.text).toContain("https://firmas.example/ui/signature_processes/abc");
    expect(message.text).toContain("28/02/2026 22:30 (UTC-05:00)");
    expect(message.subject).toContain("Contrato 2026");
    expect(message.html).toContain("Acme &#60;SAC&#62;");
    expect(message.whatsapp).toContain("Firme aquí");
    expect(message.whatsappTemplate).toEqual(["Acme <SAC>", "«Contrato 2026»", "https://firmas.example/ui/signature_processes/abc", "28/02/2026 22:30 (UTC-05:00)"]);
  });
  it("formats positive offsets", () => {
    expect(formatExpiry(new Date("2026-01-01T00:00:00Z"), "+05:30")).toBe("01/01/2026 05:30 (UTC+05:30)");
  });
});
