/** A signed PDF as the stamp API returns it: Base64 in JSON, or the binary file (binary_resp=1). */
export function pdfResponse(pdf: Uint8Array, txToken: string, binary: boolean): Response {
  if (binary) {
    return new Response(Buffer.from(pdf), {
      headers: { "content-type": "application/pdf", "content-disposition": `attachment; filename="${txToken}.pdf"`, "x-tx-token": txToken },
    });
  }
  return Response.json({ success: true, message: "OK", tx_token: txToken, signed_pdf: Buffer.from(pdf).toString("base64") });
}
