import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import type { Db } from "@/db/client";
import { sendEmail } from "./message-transports";

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
      { to: "ana@example.com", subject: "Acme le solicita firmar «Contrato»", text: "Firme aquí: https://x/ui/signature_processes/abc", html: "<p>hola</p>" },
      { organizationId: "org", processId: "p" },
      { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: "Firmas <firmas@example.com>" },
      noDb,
    );
    expect(detail).toMatch(/^smtp/);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: "firmas@example.com", to: ["ana@example.com"] });
    expect(received[0].data).toContain("https://x/ui/signature_processes/abc");
  });
});
