import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import { SMTPServer } from "smtp-server";
import type { Db } from "@/db/client";
import { sendEmail, sendWhatsapp, whatsappMessagePayload } from "./message-transports";

let server: SMTPServer;
let port = 0;
const received: { from: string; to: string[]; data: string }[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let data = "";
      stream.on("data", (c: Buffer) => (data += c.toString("utf8")));
      stream.on("end", () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("sendEmail", () => {
  it("sends through SMTP_URL with MAIL_FROM, without touching the database", async () => {
    const noDb = {} as Db;
    const detail = await sendEmail(
      {
        message: { to: "ana@example.com", subject: "Acme le solicita firmar «Contrato»", text: "Firme aquí: https://x/ui/signature_processes/abc", html: "<p>hola</p>" },
        context: { organizationId: "org", processId: "p" },
      },
      { db: noDb, settings: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: "Firmas <firmas@example.com>" } },
    );
    expect(detail).toMatch(/^smtp/);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: "firmas@example.com", to: ["ana@example.com"] });
    expect(received[0].data).toContain("https://x/ui/signature_processes/abc");
  });
});

const invitation = {
  to: "+51999888777",
  body: "Hola: Acme le ha enviado «Contrato» para firmar. Firme aquí: https://x/ui/signature_processes/abc",
  templateParameters: ["Acme SAC", "«Contrato\n2026»", "https://x/ui/signature_processes/abc", "31/12/2026 18:30 (UTC-05:00)"],
};

describe("whatsappMessagePayload", () => {
  it("uses the configured template with the body parameters in order, as the Cloud API expects", () => {
    expect(whatsappMessagePayload(invitation, { WHATSAPP_TEMPLATE_NAME: "firma_solicitud", WHATSAPP_TEMPLATE_LANGUAGE: "es_PE" })).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "51999888777",
      type: "template",
      template: {
        name: "firma_solicitud",
        language: { policy: "deterministic", code: "es_PE" },
        components: [
          {
            type: "body",
            parameters: [
              { type: "text", text: "Acme SAC" },
              { type: "text", text: "«Contrato 2026»" },
              { type: "text", text: "https://x/ui/signature_processes/abc" },
              { type: "text", text: "31/12/2026 18:30 (UTC-05:00)" },
            ],
          },
        ],
      },
    });
  });

  it("never puts new lines, tabs or long runs of spaces in a parameter (the Cloud API refuses them)", () => {
    const payload = whatsappMessagePayload({ ...invitation, templateParameters: ["a\tb     c\r\nd", "   "] }, { WHATSAPP_TEMPLATE_NAME: "t" });
    expect(payload.type === "template" && payload.template.components[0].parameters).toEqual([
      { type: "text", text: "a b c d" },
      { type: "text", text: "-" },
    ]);
    expect(payload.type === "template" && payload.template.language.code).toBe("es");
  });

  it("sends free-form text only when no template is configured", () => {
    expect(whatsappMessagePayload(invitation, {})).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "51999888777",
      type: "text",
      text: { preview_url: true, body: invitation.body },
    });
  });
});

describe("sendWhatsapp", () => {
  it("POSTs the template message to <api>/<phone-number-id>/messages with the bearer token", async () => {
    const requests: { url?: string; authorization?: string; body: string }[] = [];
    const cloudApi = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        requests.push({ url: req.url, authorization: req.headers.authorization, body });
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ messaging_product: "whatsapp", messages: [{ id: "wamid.1" }] }));
      });
    });
    await new Promise<void>((resolve) => cloudApi.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(cloudApi.address() as { port: number }).port}/v21.0/`;
      const settings = { MAIL_FROM: "x <x@example.com>", WHATSAPP_API_URL: base, WHATSAPP_TOKEN: "tok", WHATSAPP_PHONE_NUMBER_ID: "1234", WHATSAPP_TEMPLATE_NAME: "firma_solicitud" };
      const detail = await sendWhatsapp({ message: invitation, context: { organizationId: "org", processId: "p" } }, { db: {} as Db, settings });
      expect(detail).toBe("whatsapp template firma_solicitud HTTP 200");
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({ url: "/v21.0/1234/messages", authorization: "Bearer tok" });
      expect(JSON.parse(requests[0].body)).toEqual(whatsappMessagePayload(invitation, settings));
      expect(JSON.parse(requests[0].body).type).toBe("template");
    } finally {
      await new Promise<void>((resolve) => cloudApi.close(() => resolve()));
    }
  });
});
