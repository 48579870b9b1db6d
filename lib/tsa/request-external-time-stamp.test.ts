import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { makeTempDir, openssl, toPem, writeFiles } from "@/lib/pki/testing/openssl-cli";
import { isTsaError, type TsaErrorCode } from "@/lib/tsa/errors";
import { readTimeStampToken } from "@/lib/tsa/read-time-stamp-response";
import { requestExternalTimeStamp } from "@/lib/tsa/request-external-time-stamp";
import { respondToTimeStampRequest } from "@/lib/tsa/respond-to-time-stamp-request";

const policyOid = "1.3.6.1.4.1.99999.1.1";
type Mode = "ok" | "http-500" | "garbage" | "reject" | "replay" | "tampered";

describe("requestExternalTimeStamp", () => {
  let dir: string;
  let pki: PkiHierarchy;
  let server: http.Server;
  let url: string;
  let mode: Mode = "ok";
  let lastContentType: string | undefined;
  let firstResponse: Uint8Array | undefined;
  let serial = 0n;

  async function respond(body: Uint8Array): Promise<Uint8Array> {
    return respondToTimeStampRequest(body, {
      tsa: { certificateDer: pki.tsa.certificateDer, privateKey: pki.tsa.privateKey, chainDer: [pki.issuing.certificateDer] },
      policyOid,
      nextSerialNumber: async () => ++serial,
    });
  }

  beforeAll(async () => {
    dir = makeTempDir("tsa-client");
    pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://crl.example.test" });
    server = http.createServer(async (request, response) => {
      lastContentType = request.headers["content-type"];
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = new Uint8Array(Buffer.concat(chunks));
      let answer: Uint8Array;
      if (mode === "http-500") {
        response.writeHead(500).end("boom");
        return;
      } else if (mode === "garbage") answer = Buffer.from("<html>not a TSA</html>");
      else if (mode === "reject") answer = await respond(body.subarray(0, body.length - 3));
      else if (mode === "replay") answer = firstResponse!;
      else {
        answer = await respond(body);
        firstResponse ??= answer;
        if (mode === "tampered") {
          answer = Uint8Array.from(answer);
          answer[answer.length - 1]! ^= 0x01; // last octet of the ECDSA signature
        }
      }
      response.writeHead(200, { "Content-Type": "application/timestamp-reply" }).end(Buffer.from(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const digest = createHash("sha256").update("signature value").digest();

  it("returns a token that openssl verifies for the digest", async () => {
    mode = "ok";
    const token = await requestExternalTimeStamp(url, digest, { policyOid });
    expect(lastContentType).toBe("application/timestamp-query");
    const files = writeFiles(dir, { "token.der": token, "root.pem": toPem(pki.root.certificateDer) });
    const verified = openssl(["ts", "-verify", "-digest", digest.toString("hex"), "-token_in", "-in", files["token.der"], "-CAfile", files["root.pem"]]);
    expect(verified).toContain("Verification: OK");
    expect(readTimeStampToken(token).nonceContentDer).toHaveLength(8);
  });

  const failures: { mode: Mode; code: TsaErrorCode }[] = [
    { mode: "http-500", code: "TSA_HTTP_ERROR" },
    { mode: "garbage", code: "TSA_INVALID_RESPONSE" },
    { mode: "reject", code: "TSA_REJECTED" },
    { mode: "replay", code: "TSA_RESPONSE_MISMATCH" },
    { mode: "tampered", code: "TSA_INVALID_RESPONSE" },
  ];

  it.each(failures)("fails with $code when the TSA answers $mode", async ({ mode: serverMode, code }) => {
    mode = "ok";
    firstResponse ??= await respond(new Uint8Array(0)); // replay needs some earlier response
    mode = serverMode;
    await expect(requestExternalTimeStamp(url, digest)).rejects.toSatisfy((error) => isTsaError(error, code));
  });

  it("fails with TSA_REJECTED when the TSA refuses the requested policy", async () => {
    mode = "ok";
    const attempt = requestExternalTimeStamp(url, digest, { policyOid: "1.3.6.1.4.1.99999.7" });
    // our responder refuses unknown policies, so this surfaces as a rejection
    await expect(attempt).rejects.toSatisfy((error) => isTsaError(error, "TSA_REJECTED"));
  });

  it("fails with TSA_UNREACHABLE when nothing listens", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(requestExternalTimeStamp(`http://127.0.0.1:${port}/`, digest, { timeoutMs: 2000 })).rejects.toSatisfy((error) =>
      isTsaError(error, "TSA_UNREACHABLE"),
    );
  });
});
