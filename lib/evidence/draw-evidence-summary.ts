import type { IdentityLevel } from "@/lib/identity-assurance/identity-level";
import { randomBytes } from "node:crypto";
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { loadStampFonts } from "@/lib/stamp/load-stamp-fonts";
import type { EvidenceClient, ProcessEvidence, SignerEvidence } from "./collect-process-evidence";

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const FOOTER = 36;
const GREY = rgb(0.35, 0.35, 0.35);

type Style = { size?: number; bold?: boolean; indent?: number; grey?: boolean };

/** Lines of text flowing over A4 pages, wrapped to the width (long tokens such as hashes broken anywhere). */
class TextFlow {
  page!: PDFPage;
  y = 0;
  constructor(
    readonly document: PDFDocument,
    readonly fonts: { regular: PDFFont; bold: PDFFont },
  ) {
    this.newPage();
  }

  newPage() {
    this.page = this.document.addPage([A4.width, A4.height]);
    this.y = A4.height - MARGIN;
  }

  text(value: string, style: Style = {}) {
    const size = style.size ?? 9;
    const font = style.bold ? this.fonts.bold : this.fonts.regular;
    const x = MARGIN + (style.indent ?? 0);
    for (const line of wrap(value, font, size, A4.width - MARGIN - x)) {
      if (this.y - size * 1.35 < MARGIN + FOOTER) this.newPage();
      this.y -= size * 1.35;
      this.page.drawText(line, { x, y: this.y, size, font, color: style.grey ? GREY : rgb(0, 0, 0) });
    }
  }

  gap(points = 6) {
    this.y -= points;
  }
}

function wrap(value: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  const fits = (text: string) => font.widthOfTextAtSize(text, size) <= width;
  for (const word of value.split(/\s+/).filter(Boolean)) {
    const candidate = current ? `${current} ${word}` : word;
    if (fits(candidate)) {
      current = candidate;
      continue;
    }
    if (current) lines.push(current);
    current = word;
    // a token wider than the line (hash, user agent) is cut where it overflows
    while (!fits(current)) {
      let cut = current.length - 1;
      while (cut > 1 && !fits(current.slice(0, cut))) cut--;
      lines.push(current.slice(0, cut));
      current = current.slice(cut);
    }
  }
  if (current || lines.length === 0) lines.push(current);
  return lines;
}

const time = (at: Date) => `${at.toISOString().replace("T", " ").replace("Z", "")} UTC`;
const device = (client?: EvidenceClient) => (client ? `IP ${client.address} · ${client.userAgent}` : "dispositivo no registrado");
const referenceLabel: Record<string, string> = { registry: "foto de registro de la organización", "id-document": "foto del documento de identidad" };
const statusLabel: Record<string, string> = { pending: "pendiente", signed: "firmado", rejected: "rechazado", expired: "vencido", approval_pending: "espera aprobación" };

/**
 * The evidence summary of a process as a PDF (Spanish, UTC times to the millisecond): the files
 * with their hashes, then per signer the sessions, identity and facial checks, every page shown
 * with its time and device, and the signature; then the audit entries. Signed afterwards.
 */
export async function drawEvidenceSummary(evidence: ProcessEvidence): Promise<Uint8Array> {
  const document = await PDFDocument.create({ updateMetadata: false });
  document.registerFontkit(fontkit);
  const files = await loadStampFonts();
  const tag = () => Array.from(randomBytes(6), (b) => String.fromCharCode(65 + (b % 26))).join("");
  const fonts = {
    regular: await document.embedFont(files.regular, { subset: true, customName: `${tag()}+DejaVuSans` }),
    bold: await document.embedFont(files.bold, { subset: true, customName: `${tag()}+DejaVuSans-Bold` }),
  };
  document.setTitle(`Resumen de evidencias · ${evidence.process.id}`);
  document.setProducer("FirmaViva");
  document.setCreationDate(evidence.generatedAt);
  document.setModificationDate(evidence.generatedAt);
  const flow = new TextFlow(document, fonts);
  const { process } = evidence;

  flow.text("Resumen de evidencias del proceso de firma", { size: 15, bold: true });
  flow.gap(4);
  flow.text(`Organización: ${evidence.organizationName}`);
  flow.text(`Proceso: ${process.id}`);
  flow.text(`Descripción: ${process.description || "—"}`);
  flow.text(`Estado: ${statusLabel[process.status] ?? process.status} · creado ${time(process.createdAt)} por ${process.createdBy}${process.completedAt ? ` · concluido ${time(process.completedAt)}` : ""}`);
  flow.text(`Generado: ${time(evidence.generatedAt)}. Este resumen está firmado con el certificado de agente de la organización.`, { grey: true });

  flow.gap(8);
  flow.text("Documentos", { size: 12, bold: true });
  for (const d of evidence.documents) {
    flow.text(`${d.name} (${d.pages} páginas subidas)`, { bold: true, indent: 8 });
    flow.text(`SHA-256 original: ${d.originalSha256}`, { indent: 16, size: 8 });
    flow.text(`SHA-256 actual: ${d.currentSha256}`, { indent: 16, size: 8 });
  }

  for (const signer of evidence.signers) drawSigner(flow, signer);

  flow.gap(8);
  flow.text("Registro de auditoría (entradas encadenadas por hash)", { size: 12, bold: true });
  if (evidence.audit.length === 0) flow.text("Sin entradas.", { indent: 8 });
  for (const entry of evidence.audit) flow.text(`#${entry.id} ${time(entry.at)} · ${entry.action} · ${entry.actor} · ${entry.hash}`, { indent: 8, size: 8 });

  const pages = document.getPages();
  pages.forEach((page, i) =>
    page.drawText(`Proceso ${process.id} · página ${i + 1} de ${pages.length}`, { x: MARGIN, y: MARGIN / 2, size: 7, font: fonts.regular, color: GREY }),
  );
  return document.save({ useObjectStreams: false });
}

const identityLevelLabel: Record<IdentityLevel, string> = {
  eid: "eID: autenticado ante el proveedor de identidad de la organización",
  registry: "registro: rostro comparado con una foto registrada por la organización",
  "document-reviewed": "documento revisado: rostro comparado con su documento, aprobado por el personal",
  document: "documento sin revisión: rostro comparado con un documento que envió el firmante",
  none: "sin verificación de identidad",
};
const reviewLabel: Record<SignerEvidence["reviews"][number]["decision"], string> = {
  requested: "identidad en revisión (foto del documento enviada por el firmante)",
  approved: "identidad aprobada",
  rejected: "identidad rechazada",
  sign_requested: "pidió firmar durante la revisión",
};

function drawSigner(flow: TextFlow, signer: SignerEvidence) {
  flow.gap(10);
  flow.text(`Firmante ${signer.position + 1}${signer.alias ? ` — ${signer.alias}` : ""} (${signer.person}) · ${statusLabel[signer.status] ?? signer.status}`, { size: 12, bold: true });
  flow.text("Sesiones abiertas", { bold: true, indent: 8 });
  if (signer.sessions.length === 0) flow.text("Ninguna registrada.", { indent: 16 });
  for (const s of signer.sessions) flow.text(`${time(s.at)} · ${s.method === "id_number" ? "con número de documento" : "por el enlace"}${s.session ? ` · sesión ${s.session}` : ""} · ${device(s.client)}`, { indent: 16 });
  for (const check of signer.identityChecks) flow.text(`${time(check.at)} · identificación ${check.result === "verified" ? "verificada" : `fallida${check.attempt ? ` (intento ${check.attempt})` : ""}`}`, { indent: 16 });

  flow.text("Validación facial", { bold: true, indent: 8 });
  if (signer.facialTries.length === 0) flow.text("No se realizó.", { indent: 16 });
  for (const f of signer.facialTries) {
    const parts = [
      time(f.at),
      `intento ${f.attempt ?? "?"}`,
      f.result ? "aprobada" : "rechazada",
      f.reference ? `referencia: ${referenceLabel[f.reference] ?? f.reference}${f.idNumberSource ? ` (número leído ${f.idNumberSource === "mrz" ? "de la zona MRZ" : "del texto impreso"})` : ""}` : undefined,
      f.challenge ? `movimientos: ${f.challenge}` : undefined,
      f.live === undefined ? undefined : `prueba de vida: ${f.live ? "superada" : "no superada"}${f.livenessReasons?.length ? ` (${f.livenessReasons.join(", ")})` : ""}`,
      f.score === undefined ? undefined : `similitud ${f.score.toFixed(3)}${f.threshold === undefined ? "" : ` (umbral ${f.threshold.toFixed(3)})`}`,
    ].filter(Boolean);
    flow.text(parts.join(" · "), { indent: 16 });
    if (f.client) flow.text(device(f.client), { indent: 24, size: 8, grey: true });
  }

  flow.text("Nivel de identidad", { bold: true, indent: 8 });
  flow.text(signer.identity ? `${identityLevelLabel[signer.identity.level]} (${signer.identity.level}) · ${time(new Date(signer.identity.at))}${signer.identity.reviewedBy ? ` · aprobado por ${signer.identity.reviewedBy}` : ""}${signer.identity.provider ? ` · emisor eID ${signer.identity.provider}` : ""}` : "Aún no establecido.", { indent: 16 });
  const reference = signer.identity?.referenceBy;
  if (reference) flow.text(`Foto de referencia aportada por ${reference.name} (${reference.kind === "user" ? "personal" : "credencial del API"}) · ${time(new Date(reference.at))}`, { indent: 16 });
  for (const r of signer.reviews) flow.text(`${time(r.at)} · ${reviewLabel[r.decision]}${r.by ? ` por ${r.by}` : ""}${r.soleReviewer ? " (quien creó el proceso, único revisor de la organización)" : ""}${r.reason ? `: ${r.reason}` : ""}`, { indent: 16 });

  flow.text("Páginas mostradas en pantalla (primera vez que cada página se dibujó a la vista)", { bold: true, indent: 8 });
  if (signer.pagesShown.length === 0) flow.text("Ninguna registrada.", { indent: 16 });
  for (const d of signer.pagesShown) {
    const times = d.pages.map((p) => p.at.getTime());
    flow.text(`${d.documentName}: ${d.pages.length} páginas, entre ${time(new Date(Math.min(...times)))} y ${time(new Date(Math.max(...times)))}`, { indent: 16 });
    flow.text(d.pages.map((p) => `p.${p.pageIndex + 1} ${p.at.toISOString().slice(11, 23)}`).join(" · "), { indent: 24, size: 8 });
    for (const client of new Set(d.pages.map((p) => device(p.client)))) flow.text(client, { indent: 24, size: 8, grey: true });
  }

  flow.text("Firma", { bold: true, indent: 8 });
  if (signer.signature) {
    flow.text(`Firmó ${time(signer.signature.at)}`, { indent: 16 });
    if (signer.signature.signedIn) flow.text(`Identidad probada en la sesión ${signer.signature.provedIn ?? "—"}; firmó en la sesión ${signer.signature.signedIn}`, { indent: 16 });
    flow.text(device(signer.signature.client), { indent: 24, size: 8, grey: true });
  } else if (signer.declined) {
    flow.text(`Rechazó firmar ${time(signer.declined.at)}${signer.declined.reason ? `: «${signer.declined.reason}»` : ""}`, { indent: 16 });
  } else {
    flow.text("Aún no firmó.", { indent: 16 });
  }
}
