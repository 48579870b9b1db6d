import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_API_SECRET, ORG_DOMAIN } from "../fixtures/start-test-server";
import { startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer, waitFor, type ProcessApi } from "../fixtures/process-api-client";

type CloudApiRequest = { method?: string; url?: string; authorization?: string; body: string };

let seeded: SeededServer;
let admin: ProcessApi;
let cloudApi: http.Server;
const requests: CloudApiRequest[] = [];

// a fake WhatsApp Cloud API: records each request and answers like Meta does
beforeAll(async () => {
  cloudApi = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      requests.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ messaging_product: "whatsapp", messages: [{ id: `wamid.${requests.length}` }] }));
    });
  });
  await new Promise<void>((r) => cloudApi.listen(0, "127.0.0.1", r));
  const env = {
    WHATSAPP_API_URL: `http://127.0.0.1:${(cloudApi.address() as { port: number }).port}/v21.0`,
    WHATSAPP_TOKEN: "cloud-api-test-token",
    WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
    WHATSAPP_TEMPLATE_NAME: "firma_solicitud",
    WHATSAPP_TEMPLATE_LANGUAGE: "es_PE",
  };
  seeded = await startSeededServer({ env });
  const { shared } = seeded.orgs;
  admin = processApi(seeded.server.baseUrl, await login(seeded.server.baseUrl, shared.domain, shared.admin, ADMIN_API_SECRET));
});
afterAll(async () => {
  await seeded?.server.stop();
  cloudApi?.close();
});

describe("WhatsApp through the Cloud API with an approved template", () => {
  it("sends the configured template with the body parameters {{1}}..{{4}} and marks the signer notified", async () => {
    const byWhatsapp = signer({ contactInfo: { type: "whatsapp", value: "+51999888777", tz: "-03:00" } });
    const response = await admin.create({ signers: [byWhatsapp], description: "Contrato\nde alquiler" });
    expect(response.status).toBe(201);
    const { id, msg } = await response.json();
    const request = await waitFor(async () => requests.find((r) => r.body.includes(msg)));
    expect(request).toMatchObject({ method: "POST", url: "/v21.0/106540352242922/messages", authorization: "Bearer cloud-api-test-token" });
    const payload = JSON.parse(request.body);
    expect(Object.keys(payload).sort()).toEqual(["messaging_product", "recipient_type", "template", "to", "type"]);
    expect(payload).toMatchObject({ messaging_product: "whatsapp", recipient_type: "individual", to: "51999888777", type: "template" });
    expect(payload.template).toMatchObject({ name: "firma_solicitud", language: { code: "es_PE" } });
    expect(payload.template.components).toHaveLength(1);
    const [body] = payload.template.components;
    expect(body.type).toBe("body");
    expect(body.parameters.map((p: { type: string }) => p.type)).toEqual(["text", "text", "text", "text"]);
    const [organization, what, link, expiry] = body.parameters.map((p: { text: string }) => p.text);
    expect(organization).toBe(ORG_DOMAIN);
    expect(what).toBe("«Contrato de alquiler»");
    expect(link).toBe(msg);
    expect(expiry).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} \(UTC-03:00\)$/);
    const record = await waitFor(async () => {
      const listed = await (await admin.list({ process_id: id })).json();
      return listed.signatureProcesses[0].signers[0].contactInfo.notified && listed.signatureProcesses[0];
    });
    expect(record.signers[0].contactInfo).toMatchObject({ type: "whatsapp", value: "+51999888777", notified: true });
    // no inbound-message record exists, so nothing may go out as free-form text
    expect(requests.map((r) => JSON.parse(r.body).type)).toEqual(requests.map(() => "template"));
  });
});
