import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../fixtures/start-test-server";
import { type StampApiClient, fixture } from "../fixtures/stamp-api-client";
import { stampApiSession } from "../fixtures/stamp-api-session";
import { opensslTsQuery, opensslTsVerify, tempFile, validatePdf, validateTsr } from "../fixtures/independent-validators";
import { readTimeStampResponse } from "../../lib/tsa/read-time-stamp-response";

let server: TestServer;
let api: StampApiClient;
let caPem: string;
const contract = fixture("pdfs/valid/libreoffice74-contrato-a4.pdf");

const session = stampApiSession();
beforeAll(() => {
  ({ server, api, caPem } = session.current());
});

describe("signTimeStamp", () => {
  for (const hash of ["sha256", "sha384", "sha512"] as const) {
    it(`answers a .tsr that openssl verifies (${hash})`, async () => {
      const query = opensslTsQuery(contract, hash);
      const response = await api.postForm("/api/v2/signTimeStamp", {}, { tsq_file: query });
      const body = await response.json();
      expect(body).toMatchObject({ success: true, message: "OK" });
      const tsr = new Uint8Array(Buffer.from(body.tsr_file, "base64"));
      expect(opensslTsVerify(tsr, query, caPem)).toContain("Verification: OK");
      expect(validateTsr(tsr, query, caPem).pass).toBe(true);
    });
  }

  it("24 parallel requests (one shared INSERT for several): each answered with its own tx_token and serial, every .tsr verified, not gzipped", async () => {
    const queries = Array.from({ length: 24 }, (_, i) => opensslTsQuery(new Uint8Array(Buffer.from(`parallel ${i}`))));
    const answers = await Promise.all(
      queries.map(async (query, i) => {
        const response = await api.postForm(`/api/${i % 2 ? "v3" : "v2"}/signTimeStamp`, {}, { tsq_file: query });
        return { response, body: await response.json() };
      }),
    );
    expect(answers.map((a) => a.response.status)).toEqual(queries.map(() => 200));
    // undici asks for gzip; a time-stamp answer is sent as it is (next.config.js)
    for (const { response } of answers) {
      expect(response.headers.get("content-encoding")).toBeNull();
      expect(response.headers.get("cache-control")).toMatch(/no-transform/);
    }
    const tokens = answers.map((a) => a.body.tx_token as string);
    expect(tokens.every((token) => /^[A-Za-z0-9]{20}$/.test(token))).toBe(true);
    expect(new Set(tokens).size).toBe(tokens.length);
    const replies = answers.map((a) => new Uint8Array(Buffer.from(a.body.tsr_file, "base64")));
    const serials = replies.map((reply) => String(readTimeStampResponse(reply).tstInfo?.serialNumber));
    expect(new Set(serials).size).toBe(serials.length);
    replies.forEach((reply, i) => expect(opensslTsVerify(reply, queries[i], caPem)).toContain("Verification: OK"));
    expect(validateTsr(replies[5], queries[5], caPem).pass).toBe(true);
    // a .tsr answers its own query only
    expect(opensslTsVerify(replies[0], queries[1], caPem)).not.toContain("Verification: OK");
  });

  it("refuses a SHA-1 request with a clear message", async () => {
    const query = opensslTsQuery(contract, "sha1" as never);
    const response = await api.postForm("/api/v3/signTimeStamp", {}, { tsq_file: query });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(/rechazada: badAlg/);
  });

  it("refuses a missing tsq_file", async () => {
    const response = await api.postForm("/api/v2/signTimeStamp", { other: "x" });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(/tsq_file es obligatorio/);
  });
});

describe("RFC 3161 transport at /api/tsa", () => {
  it("serves application/timestamp-query like any TSA", async () => {
    const query = opensslTsQuery(contract, "sha256", ["-no_nonce"]);
    const response = await fetch(`${server.baseUrl}/api/tsa`, { method: "POST", headers: { "content-type": "application/timestamp-query" }, body: Buffer.from(query) });
    expect(response.headers.get("content-type")).toBe("application/timestamp-reply");
    const tsr = new Uint8Array(await response.arrayBuffer());
    expect(opensslTsVerify(tsr, query, caPem)).toContain("Verification: OK");
  });

  it("answers garbage with a rejection, never a crash", async () => {
    const response = await fetch(`${server.baseUrl}/api/tsa`, { method: "POST", headers: { "content-type": "application/timestamp-query" }, body: "garbage" });
    expect(response.status).toBe(200);
    const text = execFileSync("openssl", ["ts", "-reply", "-in", tempFile("g.tsr", new Uint8Array(await response.arrayBuffer())), "-text"], { encoding: "utf8" });
    expect(text).toMatch(/Status: Rejected\./);
    expect(text).toMatch(/the data submitted has the wrong format/);
  });
});

describe("PKI publication", () => {
  it("publishes the CA in PEM and DER and a CRL at the certificates' distribution point", async () => {
    expect(caPem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    const der = new Uint8Array(await (await fetch(`${server.baseUrl}/api/pki/ca.der`)).arrayBuffer());
    const subject = execFileSync("openssl", ["x509", "-inform", "DER", "-in", tempFile("ca.der", der), "-noout", "-subject"], { encoding: "utf8" });
    expect(subject).toContain("FirmaViva Root CA (Calidad)");
    const issuingPem = caPem.split(/(?=-----BEGIN CERTIFICATE-----)/)[1];
    const text = execFileSync("openssl", ["x509", "-in", tempFile("i.pem", issuingPem), "-noout", "-ext", "crlDistributionPoints"], { encoding: "utf8" });
    const url = /URI:(\S+)/.exec(text)![1];
    const crl = new Uint8Array(await (await fetch(url)).arrayBuffer());
    const crlText = execFileSync("openssl", ["crl", "-inform", "DER", "-in", tempFile("c.crl", crl), "-noout", "-issuer"], { encoding: "utf8" });
    expect(crlText).toContain("FirmaViva Root CA (Calidad)");
  });
});

describe("digital signatures with the signer's own certificate", () => {
  const holder = { sign_username: "jperez", sign_password: "Holder-Password-1", sign_pin: "4821" };

  beforeAll(async () => {
    const response = await api.postForm("/api/v2/certificateHolders", {
      ...holder,
      source: "built-in",
      names: "Juana",
      last_names: "Pérez Soto",
      person_id: "44556677",
    });
    expect(response.status, await response.clone().text()).toBe(201);
  });

  it("signs with the holder's certificate, naming the signer in the validator", async () => {
    const response = await api.signPdf({ sign_type: "digital", ...holder }, { pdf: contract });
    const body = await response.json();
    expect(body.success, body.message).toBe(true);
    const pdf = new Uint8Array(Buffer.from(body.signed_pdf, "base64"));
    const result = validatePdf(pdf, caPem);
    expect(result.pass, result.output).toBe(true);
    expect(result.output).toContain("Juana Pérez Soto");
  });

  it("uses credentials registered with updateSignCredentials, so later requests carry only the PIN", async () => {
    const registered = await api.postJson("/api/v2/updateSignCredentials", { sign_username: holder.sign_username, sign_password: holder.sign_password });
    expect(await registered.json()).toEqual({ success: true, message: "Credenciales registradas correctamente" });
    const response = await api.signPdf({ sign_type: "digital", sign_pin: holder.sign_pin }, { pdf: contract });
    expect(response.status).toBe(200);
  });

  it("refuses unknown credentials, a wrong password and a wrong PIN, then locks after repeated failures", async () => {
    const unknown = await api.signPdf({ sign_type: "digital", sign_username: "nobody", sign_password: "x", sign_pin: "1" }, { pdf: contract });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).message).toMatch(/usuario o contraseña incorrectos/);
    const wrongPin = await api.signPdf({ sign_type: "digital", ...holder, sign_pin: "0000" }, { pdf: contract });
    expect(wrongPin.status).toBe(400);
    expect((await wrongPin.json()).message).toBe("PIN incorrecto");
    for (let i = 0; i < 4; i++) await api.signPdf({ sign_type: "digital", ...holder, sign_password: "wrong-password" }, { pdf: contract });
    const locked = await api.signPdf({ sign_type: "digital", ...holder }, { pdf: contract });
    expect(locked.status).toBe(423);
    expect((await locked.json()).message).toMatch(/bloqueado/);
  });

  it("20 parallel requests, 19 wrong PINs and the right one: at most 5 are ever evaluated, then the lock holds for the right PIN too", async () => {
    const racer = { sign_username: "carrera", sign_password: "Holder-Password-2", sign_pin: "7391" };
    const enrolled = await api.postForm("/api/v2/certificateHolders", { ...racer, source: "built-in", names: "Rosa", last_names: "Carrera", person_id: "11223344" });
    expect(enrolled.status).toBe(201);
    const pins = [...Array.from({ length: 19 }, (_, i) => String(1000 + i)), racer.sign_pin];
    const answers = await Promise.all(
      pins.map(async (pin) => {
        const response = await api.signPdf({ sign_type: "digital", ...racer, sign_pin: pin }, { pdf: contract });
        return { status: response.status, message: (await response.json()).message as string | undefined };
      }),
    );
    const evaluated = answers.filter((a) => a.status === 200 || a.message === "PIN incorrecto");
    expect(evaluated.length).toBeLessThanOrEqual(5);
    expect(answers.filter((a) => a.status === 423).length).toBeGreaterThanOrEqual(15);
    const signedInBurst = answers.some((a) => a.status === 200);
    const after = await api.signPdf({ sign_type: "digital", ...racer }, { pdf: contract });
    // unless the right PIN was among the first five (then the count started again), the holder is locked
    expect(after.status).toBe(signedInBurst ? 200 : 423);
  });

  it("does not let an operator enrol holders", async () => {
    const response = await fetch(`${server.baseUrl}/api/v3/certificateHolders`, { method: "POST", headers: { authorization: "Bearer not-a-token" }, body: new FormData() });
    expect(response.status).toBe(401);
  });
});

describe("imported agent certificate", () => {
  it("signs agente requests with the organization's own PKCS#12 (RSA) once imported", async () => {
    const dir = path.dirname(tempFile("x", ""));
    const run = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "30", "-subj", "/CN=Acme Test Root", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "agent.key", "-out", "agent.csr", "-subj", "/O=Acme SAC/CN=Acme Agente");
    fs.writeFileSync(path.join(dir, "ext.cnf"), "keyUsage=critical,digitalSignature,nonRepudiation\n");
    run("x509", "-req", "-in", "agent.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "agent.pem", "-days", "30", "-extfile", "ext.cnf");
    run("pkcs12", "-export", "-inkey", "agent.key", "-in", "agent.pem", "-certfile", "ca.pem", "-out", "agent.p12", "-passout", "pass:p12-secret");
    const p12 = new Uint8Array(fs.readFileSync(path.join(dir, "agent.p12")));
    const wrong = await api.postForm("/api/v3/agentCertificate", { p12_password: "nope" }, { p12_file: p12 });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).message).toMatch(/contraseña del PKCS#12 incorrecta/);
    const imported = await api.postForm("/api/v3/agentCertificate", { p12_password: "p12-secret" }, { p12_file: p12 });
    expect(imported.status, await imported.clone().text()).toBe(201);
    // the same PKCS#12 again: before, the unique constraint's raw error
    const again = await api.postForm("/api/v3/agentCertificate", { p12_password: "p12-secret" }, { p12_file: p12 });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toMatch(/este certificado ya fue importado/);
    const signed = await api.signPdf({}, { pdf: contract });
    const body = await signed.json();
    const pdf = new Uint8Array(Buffer.from(body.signed_pdf, "base64"));
    const result = validatePdf(pdf, caPem + fs.readFileSync(path.join(dir, "ca.pem"), "utf8"));
    expect(result.pass, result.output).toBe(true);
    expect(result.output).toContain("Acme Agente");
  });
});

describe("OpenAPI", () => {
  it("describes every stamp operation from the handlers' schemas", async () => {
    const document = await (await fetch(`${server.baseUrl}/api/openapi.json`)).json();
    expect(document.openapi).toBe("3.1.0");
    for (const path of ["/api/auth/token", "/api/v3/auth/token", "/api/v2/signPDF", "/api/v3/signPDF", "/api/v2/getSignedPDF", "/api/v2/updateSignCredentials", "/api/v2/signTimeStamp", "/api/v2/certificateHolders", "/api/tsa"]) {
      expect(document.paths[path], path).toBeDefined();
    }
    // The process API is covered in detail by lib/openapi/build-openapi-document.test.ts; this checks it is served.
    expect(Object.keys(document.paths["/api/signature_processes"]).sort()).toEqual(["delete", "get", "post", "put"]);
    expect(document.webhooks.processConcluded.post).toBeDefined();
    const signFields = document.paths["/api/v2/signPDF"].post.requestBody.content["multipart/form-data"].schema.properties;
    for (const field of ["pdf_file", "image", "nationality", "person_id_type", "person_id", "names", "last_names", "email", "tx_token", "page", "position_x", "position_y", "async", "binary_resp", "sign_type", "sign_username", "sign_password", "sign_pin", "qr_type", "qr_text", "stamp_size"]) {
      expect(signFields[field], field).toBeDefined();
    }
  });
});
