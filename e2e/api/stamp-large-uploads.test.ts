import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../fixtures/start-test-server";
import { type StampApiClient, fixture } from "../fixtures/stamp-api-client";
import { stampApiSession } from "../fixtures/stamp-api-session";
import { qpdfCheck } from "../fixtures/independent-validators";

// signPDF of uploads over 1 MB: the revisions written after the upload in its own buffer, and on the
// file store the upload staged on disk as it arrives (stamp-signing.test.ts has the rest of signPDF)
let server: TestServer;
let api: StampApiClient;

const portrait = fixture("images/portrait-413x531.jpg");
const signer = { names: "José Ñúñez", last_names: "Pérez Güiraldes", person_id: "12345678", nationality: "PER", person_id_type: "DNI" };

const session = stampApiSession();
const { expectValid } = session;
beforeAll(() => {
  ({ server, api } = session.current());
});

/** Uploads staged by the file store and not yet stored or dropped (none once every request has been answered). */
function stagedFilesLeft(): string[] {
  const dir = path.join(server.dataDir, "blobs", ".staging");
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

describe("signPDF of a large upload", () => {
  // A body over 1 MB is read into one buffer with room after the file, and the signature's and DSS's
  // revisions are written there in the worker (lib/pdf/join-revisions.ts); the answer streams that
  // buffer without a copy (lib/http/bytes-response-body.ts).
  // On the file store the upload is also written to disk as it arrives, and the stored output is that
  // file plus the revisions (lib/blob-store/fs-staged-upload.ts): getSignedPDF must serve the answer's bytes.
  it("a 1 MB document with a stamp, answered binary and signed again: the upload a prefix, both signatures valid, the stored copy the answer", async () => {
    const large = fixture("pdfs/valid/classic-xref-pdftex-tracemonkey.pdf");
    let pdf: Uint8Array = large;
    for (let i = 0; i < 2; i++) {
      const txToken = `Large${i}${Date.now()}`.padEnd(20, "0").slice(0, 20);
      const response = await api.signPdf({ ...signer, tx_token: txToken, binary_resp: 1, page: 1, position_x: 40, position_y: 40 + i * 150 }, { pdf, image: portrait });
      expect(response.status).toBe(200);
      const signed = new Uint8Array(await response.arrayBuffer());
      expect(Buffer.from(signed.subarray(0, pdf.length)).equals(Buffer.from(pdf))).toBe(true);
      expect(qpdfCheck(signed).ok).toBe(true);
      const stored = await api.getSignedPdf(txToken, true);
      expect(stored.status).toBe(200);
      expect(Buffer.from(await stored.arrayBuffer()).equals(Buffer.from(signed))).toBe(true);
      pdf = signed;
    }
    expectValid(pdf, 2);
    expect(stagedFilesLeft()).toEqual([]);
  });

  // only the file store stages uploads; on PostgreSQL blobs are rows (lib/runtime/services.ts)
  it.skipIf(process.env.TEST_DATABASE === "postgres")("leaves no staged upload behind: a large upload refused after reading, and one cut off on the way", async () => {
    const refused = await api.signPdf({}, { pdf: new Uint8Array(1_200_000).fill(0x41) });
    expect(refused.status).toBe(400);
    expect(stagedFilesLeft()).toEqual([]);
    // 3 MB declared, 1.5 MB sent: the file is being staged while the client holds the connection
    const boundary = "----fvstaged";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="pdf_file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`;
    const request = http.request(`${server.baseUrl}/api/v2/signPDF`, {
      method: "POST",
      agent: false,
      headers: { authorization: `Bearer ${api.token}`, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(3 * 1024 * 1024) },
    });
    request.on("error", () => undefined);
    request.write(head);
    request.write(new Uint8Array(1536 * 1024).fill(0x20));
    await expect.poll(() => stagedFilesLeft().length, { timeout: 30_000 }).toBe(1);
    request.destroy();
    await expect.poll(() => stagedFilesLeft(), { timeout: 30_000 }).toEqual([]);
  });

  it("a 1 MB document signed async: the queued input is the upload as staged, the output valid", async () => {
    const large = fixture("pdfs/valid/classic-xref-pdftex-tracemonkey.pdf");
    const response = await api.signPdf({ ...signer, async: 1, page: 1, position_x: 40, position_y: 40 }, { pdf: large, image: portrait });
    const { tx_token: txToken } = await response.json();
    let result: Response;
    for (;;) {
      result = await api.getSignedPdf(txToken, true);
      if (result.status !== 202) break;
      await result.arrayBuffer();
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(result.status).toBe(200);
    const signed = new Uint8Array(await result.arrayBuffer());
    expect(Buffer.from(signed.subarray(0, large.length)).equals(Buffer.from(large))).toBe(true);
    expectValid(signed, 1);
    expect(stagedFilesLeft()).toEqual([]);
  });
});
