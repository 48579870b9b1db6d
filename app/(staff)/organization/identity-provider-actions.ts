"use server";

import { revalidatePath } from "next/cache";
import { runStaffAction, type ActionResult } from "@/lib/http/run-staff-action";
import { parseWith } from "@/lib/request-reading/parse-input";
import { ZIdentityProviderSettings } from "@/lib/identity-assurance/eid/schemas";
import { removeIdentityProvider, saveIdentityProvider } from "@/lib/identity-assurance/eid/save-identity-provider";

/** The eID provider is the owner's and the administrators' (staff:manage), like the rest of this page they may see. */
export async function saveIdentityProviderAction(input: unknown): Promise<ActionResult> {
  return runStaffAction("staff:manage", async (staff, { db, config }) => {
    await saveIdentityProvider({ organizationId: staff.organizationId, settings: parseWith(ZIdentityProviderSettings, input), actor: staff.email }, { db, secretKey: config.secretKey });
    revalidatePath("/organization");
    return { message: "Proveedor de identidad guardado." };
  });
}

export async function removeIdentityProviderAction(): Promise<ActionResult> {
  return runStaffAction("staff:manage", async (staff, { db }) => {
    await removeIdentityProvider({ organizationId: staff.organizationId, actor: staff.email }, { db });
    revalidatePath("/organization");
    return { message: "Proveedor de identidad eliminado." };
  });
}
