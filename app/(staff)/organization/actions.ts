"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runStaffAction, type ActionResult } from "@/lib/http/run-staff-action";
import { parseWith } from "@/lib/request-reading/parse-input";
import { ZNewStaffUser, ZStaffRemoval, type OrganizationSettingsInput } from "@/lib/organizations/schemas";
import type { ReassignedCredential } from "@/lib/credentials/settle-departed-credentials";
import { updateOrganizationSettings } from "@/lib/organizations/update-organization-settings";
import { createStaffUser } from "@/lib/organizations/create-staff-user";
import { disableStaffUser } from "@/lib/organizations/disable-staff-user";
import { resetStaffPassword } from "@/lib/auth/change-staff-password";

/** Organization settings and staff membership are the owner's (organization:manage). */
export async function updateSettingsAction(input: unknown): Promise<ActionResult> {
  return runStaffAction("organization:manage", async (staff, { db }) => {
    // the use case refuses allowPrivateCallbacks by name before the schema would call it unknown
    await updateOrganizationSettings({ organizationId: staff.organizationId, settings: input as Partial<OrganizationSettingsInput>, actor: staff.email }, db);
    revalidatePath("/", "layout");
    return { message: "Configuración guardada." };
  });
}

export async function addStaffUserAction(input: unknown): Promise<ActionResult> {
  return runStaffAction("organization:manage", async (staff, { db }) => {
    const data = parseWith(ZNewStaffUser, input);
    const row = await createStaffUser({ ...data, organizationId: staff.organizationId }, db);
    revalidatePath("/organization");
    return { message: `${row.email} agregado con el rol ${row.role}.` };
  });
}

/** The new secrets of re-assigned credentials come back once, to the owner who removed the person. */
export async function removeStaffUserAction(input: unknown): Promise<ActionResult<ReassignedCredential[]>> {
  return runStaffAction("organization:manage", async (staff, { db }) => {
    const { userId, reassign } = parseWith(ZStaffRemoval, input);
    const row = await disableStaffUser({ organizationId: staff.organizationId, userId, actingUserId: staff.userId, actor: staff.email, reassign }, db);
    revalidatePath("/organization");
    revalidatePath("/api-access");
    const rotated = row.callbackSecretRotated ? " El secreto de callback que vio fue rotado; el anterior se acepta 24 h." : "";
    return { message: `${row.email} ya no tiene acceso.${rotated}`, data: row.reassigned };
  });
}

export async function resetStaffPasswordAction(input: unknown): Promise<ActionResult> {
  return runStaffAction("organization:manage", async (staff, { db }) => {
    const { userId, newPassword } = parseWith(z.object({ userId: z.uuid(), newPassword: z.string() }), input);
    const actor = { kind: "owner", email: staff.email, organizationId: staff.organizationId, isPlatformAdmin: staff.isPlatformAdmin } as const;
    const row = await resetStaffPassword({ userId, newPassword, actor }, db);
    return { message: `Contraseña de ${row.email} restablecida; sus sesiones y tokens de API terminaron.` };
  });
}

