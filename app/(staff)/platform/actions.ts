"use server";

import { revalidatePath } from "next/cache";
import { getServices } from "@/lib/runtime/services";
import { requirePlatformAdmin } from "@/lib/http/require-platform-admin";
import { createOrganization } from "@/lib/organizations/create-organization";
import { setOrganizationStatus } from "@/lib/organizations/set-organization-status";
import { ZCreateOrganization, ZPrivateCallbacksSwitch } from "@/lib/organizations/schemas";
import { findOrganizationByDomain } from "@/lib/organizations/find-organization";
import { setPrivateCallbacks } from "@/lib/organizations/set-private-callbacks";
import { isAppError } from "@/lib/errors";

export type ActionResult = { ok: true; message: string } | { ok: false; message: string; field?: string };

export async function createOrganizationAction(input: unknown): Promise<ActionResult> {
  await requirePlatformAdmin();
  const parsed = ZCreateOrganization.safeParse(input);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0].message, field: String(parsed.error.issues[0].path[0] ?? "") };
  const { db } = await getServices();
  try {
    const { organization, owner } = await createOrganization({ ...parsed.data, platformAdmin: false }, db);
    revalidatePath("/platform");
    return { ok: true, message: `Organización ${organization.domain} creada con el propietario ${owner.email}` };
  } catch (error) {
    if (isAppError(error)) return { ok: false, message: error.message, field: error.field };
    throw error;
  }
}

export async function setOrganizationStatusAction(domain: string, status: "active" | "suspended"): Promise<ActionResult> {
  const admin = await requirePlatformAdmin();
  if (domain === admin.organizationDomain && status === "suspended") return { ok: false, message: "No puede suspender su propia organización." };
  const { db } = await getServices();
  const row = await setOrganizationStatus({ domain, status, actor: admin.email }, db);
  revalidatePath("/platform");
  return { ok: true, message: `${row.domain}: ${row.status === "active" ? "reactivada" : "suspendida"}` };
}

/** The SSRF guard of one organization: a platform decision, since it opens this server's own network. */
export async function setPrivateCallbacksAction(input: unknown): Promise<ActionResult> {
  const admin = await requirePlatformAdmin();
  const parsed = ZPrivateCallbacksSwitch.safeParse(input);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0].message };
  const { db } = await getServices();
  try {
    const organization = await findOrganizationByDomain(parsed.data.domain, db);
    const row = await setPrivateCallbacks({ organizationId: organization.id, allow: parsed.data.allow, actor: admin.email }, db);
    revalidatePath("/platform");
    return { ok: true, message: `${row.domain}: callbacks a red privada ${row.allowPrivateCallbacks ? "permitidos" : "prohibidos"}` };
  } catch (error) {
    if (isAppError(error)) return { ok: false, message: error.message };
    throw error;
  }
}
