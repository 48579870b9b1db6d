import type { PadesLevel } from "@/lib/verification/verification-report";
import { bytesResponseBody } from "@/lib/http/bytes-response-body";
import { base64JsonBody } from "@/lib/http/base64-json-body";

/** What the output reaches, told to the integrator: B-LT normally, B-T when outside revocation data could not be had. */
export type OutputLevel = { padesLevel: PadesLevel | null; revocationUnavailable: string[] };

/**
 * A signed PDF as the stamp API returns it: Base64 in JSON, or the binary file (binary_resp=1).
 * The PAdES level rides along (pades_level, or the X-Pades-Level header for binary answers).
 */
export function pdfResponse(pdf: Uint8Array, txToken: string, binary: boolean, level: OutputLevel): Response {
  // a view, not a copy: the signed file may be 50 MB
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  if (binary) {
    return new Response(bytesResponseBody(bytes), {
      headers: {
        "content-type": "application/pdf",
        "content-disposition": `attachment; filename="${txToken}.pdf"`,
        "x-tx-token": txToken,
        ...(level.padesLevel ? { "x-pades-level": level.padesLevel } : {}),
      },
    });
  }
  // the Base64 is made piece by piece as the answer is sent: never a whole 67 MB string on the event loop
  const fields = {
    success: true,
    message: "OK",
    tx_token: txToken,
    pades_level: level.padesLevel,
    ...(level.revocationUnavailable.length ? { revocation_unavailable: level.revocationUnavailable } : {}),
  };
  return new Response(base64JsonBody(fields, "signed_pdf", bytes), { headers: { "content-type": "application/json" } });
}
