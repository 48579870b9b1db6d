import nodemailer, { type Transporter } from "nodemailer";
import type { Db } from "@/db/client";
import { devMailbox } from "@/db/schema";

export type OutgoingEmail = { to: string; subject: string; text: string; html: string };
export type OutgoingWhatsapp = { to: string; body: string };
export type TransportSettings = {
  SMTP_URL?: string;
  MAIL_FROM: string;
  WHATSAPP_API_URL?: string;
  WHATSAPP_TOKEN?: string;
  WHATSAPP_PHONE_NUMBER_ID?: string;
};
type Context = { organizationId: string; processId: string };

const transporters = new Map<string, Transporter>();

/** SMTP when SMTP_URL is set; otherwise the message is kept in the dev mailbox (chosen once per setting). */
export async function sendEmail(message: OutgoingEmail, context: Context, settings: TransportSettings, db: Db): Promise<string> {
  if (!settings.SMTP_URL) {
    await db.insert(devMailbox).values({ ...context, channel: "email", recipient: message.to, subject: message.subject, body: message.text });
    return "kept in dev mailbox";
  }
  let transporter = transporters.get(settings.SMTP_URL);
  if (!transporter) {
    transporter = nodemailer.createTransport(settings.SMTP_URL, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
    transporters.set(settings.SMTP_URL, transporter);
  }
  const info = await transporter.sendMail({ from: settings.MAIL_FROM, ...message });
  return `smtp ${info.messageId ?? ""}`.trim();
}

/** WhatsApp Cloud API text message when WHATSAPP_* are set; otherwise kept in the dev mailbox. */
export async function sendWhatsapp(message: OutgoingWhatsapp, context: Context, settings: TransportSettings, db: Db): Promise<string> {
  const { WHATSAPP_API_URL: base, WHATSAPP_TOKEN: token, WHATSAPP_PHONE_NUMBER_ID: phoneId } = settings;
  if (!base || !token || !phoneId) {
    await db.insert(devMailbox).values({ ...context, channel: "whatsapp", recipient: message.to, body: message.body });
    return "kept in dev mailbox";
  }
  const response = await fetch(`${base.replace(/\/$/, "")}/${phoneId}/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: message.to.replace(/^\+/, ""),
      type: "text",
      text: { preview_url: true, body: message.body },
    }),
    signal: AbortSignal.timeout(10_000),
  });
  const detail = (await response.text()).slice(0, 300);
  if (!response.ok) throw new Error(`WhatsApp API HTTP ${response.status}: ${detail}`);
  return `whatsapp HTTP ${response.status}`;
}
