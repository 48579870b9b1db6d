import { describe, expect, it } from "vitest";
import { messages, type MessageKey } from "@/lib/i18n/messages";
import { describeProcessEvent } from "./describe-process-event";
import type { ProcessEventRow } from "./get-process-detail";
import type { SignerRow } from "./load-process-records";
import type { ProcessEventKind } from "./record-process-event";

const es = (key: MessageKey) => messages.es[key];
const en = (key: MessageKey) => messages.en[key];
const signers = [{ id: "s1", nat: "PER", docId: "74407841", signerAlias: "Ana Quispe" }, { id: "s2", nat: "CHL", docId: "11111111-1", signerAlias: "" }] as SignerRow[];
const event = (kind: ProcessEventKind, more: Partial<ProcessEventRow> = {}) =>
  ({ id: 1, kind, actor: null, signerId: null, detail: {}, createdAt: new Date(), processId: "p", organizationId: "o", ...more }) as ProcessEventRow;

describe("describeProcessEvent", () => {
  it.each<[ProcessEventRow, string, string]>([
    [event("created", { actor: "api@acme.pe", detail: { status: "pending" } }), "api@acme.pe creó el proceso.", "api@acme.pe created the process."],
    [event("created", { actor: "api@acme.pe", detail: { status: "approval_pending" } }), "api@acme.pe creó el proceso; queda por aprobar antes de notificar.", "api@acme.pe created the process; it awaits approval before signers are notified."],
    [event("notified", { signerId: "s1", detail: { channel: "email" } }), "Se envió el enlace de firma a Ana Quispe (DNI (Perú) 74407841) por correo.", "The signing link was sent to Ana Quispe (DNI (Peru) 74407841) by e-mail."],
    [event("notified", { signerId: "s2", detail: { channel: "whatsapp" } }), "Se envió el enlace de firma a RUN (Chile) 11111111-1 por WhatsApp.", "The signing link was sent to RUN (Chile) 11111111-1 by WhatsApp."],
    [event("facial_recorded", { signerId: "s1", detail: { result: true, score: 0.8123, attempt: 1 } }), "Ana Quispe (DNI (Perú) 74407841) superó la validación facial (puntaje 0.81, intento 1).", "Ana Quispe (DNI (Peru) 74407841) passed the facial check (score 0.81, attempt 1)."],
    [event("facial_recorded", { signerId: "s1", detail: { result: false, score: 0.2, attempt: 2 } }), "Ana Quispe (DNI (Perú) 74407841) no superó la validación facial (puntaje 0.20, intento 2).", "Ana Quispe (DNI (Peru) 74407841) failed the facial check (score 0.20, attempt 2)."],
    [event("signed", { signerId: "s2", detail: { documents: ["d1", "d2"] } }), "RUN (Chile) 11111111-1 firmó 2 documento(s).", "RUN (Chile) 11111111-1 signed 2 document(s)."],
    [event("declined", { signerId: "s2", detail: { reason: "datos errados" } }), "RUN (Chile) 11111111-1 rechazó firmar. Motivo: «datos errados».", "RUN (Chile) 11111111-1 declined to sign. Reason: “datos errados”."],
    [event("rejected", { signerId: "s2" }), "El proceso quedó rechazado porque RUN (Chile) 11111111-1 no firmó.", "The process was rejected because RUN (Chile) 11111111-1 declined to sign."],
    [event("rejected", { actor: "admin@acme.pe" }), "admin@acme.pe rechazó el proceso.", "admin@acme.pe rejected the process."],
    [event("completed"), "Todos los firmantes firmaron: el proceso quedó firmado.", "Every signer signed: the process is signed."],
    [event("expired"), "El proceso venció sin completarse.", "The process expired before it was completed."],
    [event("links_issued", { actor: "api@acme.pe", detail: { links: 2, queued: 1 } }), "api@acme.pe emitió 2 enlace(s) de firma; 1 mensaje(s) en cola.", "api@acme.pe issued 2 signing link(s); 1 message(s) queued."],
    [event("callback_requeued", { actor: "admin@acme.pe", detail: { outboxId: 42 } }), "admin@acme.pe pidió reenviar el callback (trabajo n.º 42).", "admin@acme.pe asked to send the callback again (job #42)."],
    [event("session_started", { signerId: "s2", detail: { method: "link", client: { ip: "10.0.0.1" } } }), "RUN (Chile) 11111111-1 abrió el enlace de firma.", "RUN (Chile) 11111111-1 opened the signing link."],
    [event("identity_failed", { detail: { attempt: 3 } }), "Se ingresó un número de documento que no coincide (intento 3).", "An ID number that does not match was entered (attempt 3)."],
  ])("%#: one sentence in Spanish and English, no JSON", (row, spanish, english) => {
    expect(describeProcessEvent(row, signers, es)).toBe(spanish);
    expect(describeProcessEvent(row, signers, en)).toBe(english);
  });

  it("names a removed signer without exposing ids, and the system when nobody acted", () => {
    expect(describeProcessEvent(event("identity_verified", { signerId: "gone" }), signers, es)).toBe("Alguien confirmó su número de documento.");
    expect(describeProcessEvent(event("approved"), signers, es)).toBe("FirmaViva aprobó el proceso.");
  });
});
