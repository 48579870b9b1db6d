"use server";

import crypto from "node:crypto";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runStaffAction, type ActionResult } from "@/lib/http/run-staff-action";
import { parseWith } from "@/lib/request-reading/parse-input";
import { createCredential } from "@/lib/credentials/create-credential";
import { setCredentialRole } from "@/lib/credentials/set-credential-role";
import { revokeCredential } from "@/lib/credentials/revoke-credential";
import { rotateCallbackSecret } from "@/lib/callbacks/rotate-callback-secret";
import { revealCallbackSecret } from "@/lib/callbacks/reveal-callback-secret";
import { ZCredentialAccess, ZNewCredential } from "@/lib/credentials/schemas";

const ZCredentialId = z.object({ credentialId: z.uuid() });

/** The secret is generated here and returned once; only its argon2id hash is stored. */
export async function createCredentialAction(input: unknown): Promise<ActionResult<{ clientname: string; secret: string }>> {
  return runStaffAction("credentials:manage", async (staff, { db }) => {
    const { clientname, role, grants } = parseWith(ZNewCredential, input);
    const secret = crypto.randomBytes(24).toString("base64url");
    // the grantor's role: a grant they do not hold themselves is refused (lib/credentials/assert-may-grant.ts)
    const row = await createCredential({ organizationId: staff.organizationId, clientname, secret, role, grants, actor: staff.email, grantorRole: staff.role, createdByUserId: staff.userId }, db);
    revalidatePath("/api-access");
    return { message: `Credencial ${row.clientname} creada.`, data: { clientname: row.clientname, secret } };
  });
}

export async function setCredentialRoleAction(input: unknown): Promise<ActionResult> {
  return runStaffAction("credentials:manage", async (staff, { db }) => {
    const { credentialId, role, grants } = parseWith(ZCredentialAccess, input);
    const row = await setCredentialRole({ organizationId: staff.organizationId, credentialId, role, grants, actor: staff.email, grantorRole: staff.role }, db);
    revalidatePath("/api-access");
    return { message: `${row.clientname}: rol ${row.role}${row.grants.length ? ` + ${row.grants.join(", ")}` : ""}.` };
  });
}

export async function revokeCredentialAction(input: unknown): Promise<ActionResult> {
  return runStaffAction("credentials:manage", async (staff, { db }) => {
    const { credentialId } = parseWith(ZCredentialId, input);
    const row = await revokeCredential({ organizationId: staff.organizationId, credentialId, actor: staff.email }, db);
    revalidatePath("/api-access");
    return { message: `${row.clientname} revocada.` };
  });
}

/** Each reveal is audited with who saw which version: their removal rotates it. */
export async function revealCallbackSecretAction(): Promise<ActionResult<string>> {
  return runStaffAction("credentials:manage", async (staff, { db, config }) => {
    const { version, secret } = await revealCallbackSecret({ organizationId: staff.organizationId, userId: staff.userId, actor: staff.email }, { db, secretKey: config.secretKey });
    return { message: `v${version}`, data: secret };
  });
}

export async function rotateCallbackSecretAction(): Promise<ActionResult> {
  return runStaffAction("credentials:manage", async (staff, { db }) => {
    const version = await rotateCallbackSecret({ organizationId: staff.organizationId, actor: staff.email, overlap: false, reason: "rotated from the dashboard" }, db);
    revalidatePath("/api-access");
    return { message: `Secreto de callback rotado: versión ${version}.` };
  });
}
