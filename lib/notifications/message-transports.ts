import nodemailer, { type Transporter } from "nodemailer";
import type { Db } from "@/db/client";
import { devMailbox } from "@/db/schema";

export type OutgoingEmail = { to: string; subject: string; text: string; html: string };
/** `body` is the free-form text; `templateParameters` fill the approved template's body {{1}}, {{2}}, … */
export type OutgoingWhatsapp = { to: string; body: string; templateParameters: string[] };
export type TransportSettings = {
  SMTP_URL?: string;
  MAIL_FROM: string;
  WHATSAPP_API_URL?: string;
  WHATSAPP_TOKEN?: string;
  WHATSAPP_PHONE_NUMBER_ID?: string;
  WHATSAPP_TEMPLATE_NAME?: string;
  WHATSAPP_TEMPLATE_LANGUAGE?: string;
};
type Context = { organizationId: string; processId: string };

const transporters = new Map<string, Transporter>();

/** SMTP when SMTP_URL is set; otherwise the message is kept in the dev mailbox (chosen once per setting). */
export async function sendEmail({ message, context }: { message: OutgoingEmail; context: Context }, { db, settings }: { db: Db; settings: TransportSettings }): Promise<string> {
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

type WhatsappEnvelope = { messaging_product: "whatsapp"; recipient_type: "individual"; to: string };
export type WhatsappPayload =
  | (WhatsappEnvelope & { type: "text"; text: { preview_url: boolean; body: string } })
  | (WhatsappEnvelope & {
      type: "template";
      template: { name: string; language: { policy: "deterministic"; code: string }; components: { type: "body"; parameters: { type: "text"; text: string }[] }[] };
    });

/** Cloud API rule for template parameters: no new lines or tabs, no more than 4 spaces in a row. */
const templateParameterText = (value: string) => value.replace(/\s+/g, " ").trim().slice(0, 1024) || "-";

/**
 * The Cloud API request body. We keep no record of messages a signer sent us, so we never know we
 * are inside the 24-hour customer-service window: with a template configured every message uses
 * it; free-form text is only sent when no template is configured (it reaches only signers who wrote
 * to the business number in the last 24 hours).
 */
export function whatsappMessagePayload(message: OutgoingWhatsapp, settings: Pick<TransportSettings, "WHATSAPP_TEMPLATE_NAME" | "WHATSAPP_TEMPLATE_LANGUAGE">): WhatsappPayload {
  const to = message.to.replace(/^\+/, "");
  if (!settings.WHATSAPP_TEMPLATE_NAME) {
    return { messaging_product: "whatsapp", recipient_type: "individual", to, type: "text", text: { preview_url: true, body: message.body } };
  }
  return {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to,
    type: "template",
    template: {
      name: settings.WHATSAPP_TEMPLATE_NAME,
      language: { policy: "deterministic", code: settings.WHATSAPP_TEMPLATE_LANGUAGE ?? "es" },
      components: [{ type: "body", parameters: message.templateParameters.map((text) => ({ type: "text", text: templateParameterText(text) })) }],
    },
  };
}

/** WhatsApp Cloud API message (template or text, see whatsappMessagePayload) when WHATSAPP_* are set; otherwise kept in the dev mailbox. */
export async function sendWhatsapp({ message, context }: { message: OutgoingWhatsapp; context: Context }, { db, settings }: { db: Db; settings: TransportSettings }): Promise<string> {
  const { WHATSAPP_API_URL: base, WHATSAPP_TOKEN: token, WHATSAPP_PHONE_NUMBER_ID: phoneId } = settings;
  if (!base || !token || !phoneId) {
    await db.insert(devMailbox).values({ ...context, channel: "whatsapp", recipient: message.to, body: message.body });
    return "kept in dev mailbox";
  }
  const payload = whatsappMessagePayload(message, settings);
  const response = await fetch(`${base.replace(/\/$/, "")}/${phoneId}/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(10_000),
  });
  const detail = (await response.text()).slice(0, 300);
  if (!response.ok) throw new Error(`WhatsApp API HTTP ${response.status}: ${detail}`);
  return `whatsapp ${payload.type}${payload.type === "template" ? ` ${settings.WHATSAPP_TEMPLATE_NAME}` : ""} HTTP ${response.status}`;
}
