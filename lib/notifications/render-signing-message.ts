export type SigningMessageInput = {
  organizationName: string;
  description: string;
  link: string;
  linkExpiresAt: Date;
  /** Signer's UTC offset, `(+|-)HH:MM` (contactInfo.tz). */
  tz: string;
  signerAlias?: string;
};

/**
 * `whatsappTemplate` fills the approved template's body {{1}}..{{4}}: organization, what to sign,
 * signing link, link expiry (README.md, WHATSAPP_TEMPLATE_NAME).
 */
export type SigningMessage = { subject: string; text: string; html: string; whatsapp: string; whatsappTemplate: string[] };

/** The link's expiry in the signer's offset: `31/12/2026 18:30 (UTC-05:00)`. */
export function formatExpiry(date: Date, tz: string): string {
  const match = /^([+-])(\d{2}):(\d{2})$/.exec(tz) ?? ["", "-", "05", "00"];
  const minutes = (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
  const local = new Date(date.getTime() + minutes * 60_000);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(local.getUTCDate())}/${two(local.getUTCMonth() + 1)}/${local.getUTCFullYear()} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())} (UTC${match[1]}${match[2]}:${match[3]})`;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Spanish e-mail and WhatsApp text inviting a signer to sign. */
export function renderSigningMessage(input: SigningMessageInput): SigningMessage {
  const greeting = input.signerAlias ? `Hola, ${input.signerAlias}:` : "Hola:";
  const expiry = formatExpiry(input.linkExpiresAt, input.tz);
  const what = input.description ? `«${input.description}»` : "documentos";
  const subject = `${input.organizationName} le solicita firmar ${input.description ? `«${input.description}»` : "documentos"}`.slice(0, 200);
  const text = [
    greeting,
    "",
    `${input.organizationName} le ha enviado ${what} para su firma electrónica.`,
    "",
    `Para revisar y firmar, abra este enlace: ${input.link}`,
    "",
    `El enlace vence el ${expiry}.`,
    "",
    "Si no esperaba este mensaje, puede ignorarlo.",
  ].join("\n");
  const html = `<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(input.organizationName)} le ha enviado ${escapeHtml(what)} para su firma electrónica.</p>
<p><a href="${escapeHtml(input.link)}">Revisar y firmar</a></p>
<p>El enlace vence el ${escapeHtml(expiry)}.</p>
<p style="color:#666">Si no esperaba este mensaje, puede ignorarlo.</p>`;
  const whatsapp = `${greeting} ${input.organizationName} le ha enviado ${what} para firmar. Firme aquí: ${input.link} (vence el ${expiry}).`;
  const whatsappTemplate = [input.organizationName, what, input.link, expiry];
  return { subject, text, html, whatsapp, whatsappTemplate };
}
