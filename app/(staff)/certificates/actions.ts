"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runStaffAction, type ActionResult } from "@/lib/http/run-staff-action";
import { parseWith } from "@/lib/request-reading/parse-input";
import { AppError } from "@/lib/errors";
import { ZEnrollCertificateHolder } from "@/lib/stamp-signing/schemas";
import { enrollCertificateHolder } from "@/lib/stamp-signing/enroll-certificate-holder";
import { revokeCertificateHolder } from "@/lib/certificates/revoke-certificate-holder";
import { importAgentCertificate } from "@/lib/certificates/import-agent-certificate";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";

const MAX_P12_BYTES = 1024 * 1024;

/** The optional PKCS#12 file of a form, refused above 1 MB like the stamp API does. */
async function p12Of(form: FormData, field: string): Promise<Uint8Array | undefined> {
  const file = form.get(field);
  if (!(file instanceof File) || file.size === 0) return undefined;
  if (file.size > MAX_P12_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "el PKCS#12 supera 1 MB", field);
  return new Uint8Array(await file.arrayBuffer());
}

function textFields(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  form.forEach((value, key) => {
    if (typeof value === "string" && value !== "") fields[key] = value;
  });
  return fields;
}

export async function enrollHolderAction(form: FormData): Promise<ActionResult> {
  return runStaffAction("certificates:manage", async (staff, { db, config, pools }) => {
    const fields = parseWith(ZEnrollCertificateHolder, textFields(form));
    const p12 = await p12Of(form, "p12_file");
    const holder = await enrollCertificateHolder({ ...fields, organizationId: staff.organizationId, p12, enrolledBy: { userId: staff.userId, actor: staff.email } }, { db, settings: pkiSettingsOf(config), pools });
    revalidatePath("/certificates");
    return { message: `Titular ${holder.signUsername} registrado: ${holder.subject}` };
  });
}

export async function revokeHolderAction(input: unknown): Promise<ActionResult> {
  return runStaffAction("certificates:manage", async (staff, { db }) => {
    const { holderId } = parseWith(z.object({ holderId: z.uuid() }), input);
    const holder = await revokeCertificateHolder({ organizationId: staff.organizationId, holderId }, db);
    revalidatePath("/certificates");
    return { message: `${holder.signUsername} revocado.` };
  });
}

export async function importAgentAction(form: FormData): Promise<ActionResult> {
  return runStaffAction("certificates:manage", async (staff, { db, config, pools }) => {
    const p12 = await p12Of(form, "p12_file");
    const password = String(form.get("p12_password") ?? "");
    const result = await importAgentCertificate({ organizationId: staff.organizationId, p12, password }, { db, settings: pkiSettingsOf(config), pools });
    revalidatePath("/certificates");
    return { message: `Certificado de agente importado: ${result.subject}` };
  });
}
