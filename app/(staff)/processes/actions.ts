"use server";

import { revalidatePath } from "next/cache";
import { runStaffAction, type ActionResult } from "@/lib/http/run-staff-action";
import { staffProcessCaller } from "@/lib/auth/staff-process-caller";
import { notifyProcess } from "@/lib/processes/notify-process";
import { rejectProcesses } from "@/lib/processes/reject-processes";
import { approveProcess } from "@/lib/processes/approve-process";
import { modifyProcess } from "@/lib/processes/modify-process";
import { redeliverCallback } from "@/lib/callbacks/redeliver-callback";
import { ZModifyProcess, ZProcessId } from "@/lib/processes/schemas";
import { parseWith } from "@/lib/request-reading/parse-input";
import { AppError, isAppError } from "@/lib/errors";
import type { Services } from "@/lib/runtime/services";
import { unlockSigner } from "@/lib/signers/unlock-signer";
import { ZUnlockSigner } from "@/lib/signers/schemas";

const linkSettings = (services: Services) => ({ secretKey: services.config.secretKey, publicUrl: services.config.publicUrl });
const detailPath = (id: string) => `/processes/${encodeURIComponent(id)}`;
type Links = string | { link: string; nat_dni: string }[];

export async function notifyProcessAction(processId: unknown): Promise<ActionResult<Links>> {
  const id = ZProcessId.parse(processId);
  return runStaffAction("processes:notify", async (staff, services) => {
    const links = await notifyProcess({ caller: staffProcessCaller(staff), processId: id }, { db: services.db, settings: linkSettings(services) });
    revalidatePath(detailPath(id));
    return { message: links === "approvalPending" ? "El proceso espera aprobación; no se emitieron enlaces." : "Enlaces nuevos emitidos y notificaciones encoladas.", data: links };
  });
}

export async function rejectProcessAction(processId: unknown): Promise<ActionResult> {
  const id = ZProcessId.parse(processId);
  return runStaffAction("processes:reject", async (staff, services) => {
    await rejectProcesses({ caller: staffProcessCaller(staff), processIds: [id] }, services.db);
    revalidatePath(detailPath(id));
    return { message: "Proceso rechazado." };
  });
}

/** Description and signers (update, remove), validated by the process API's own schema. */
export async function modifyProcessAction(input: unknown): Promise<ActionResult> {
  return runStaffAction("processes:modify", async (staff, services) => {
    const data = parseWith(ZModifyProcess, input);
    await modifyProcess({ caller: staffProcessCaller(staff), data }, services.db).catch(explainModifyFailure);
    revalidatePath(detailPath(data.process_id));
    return { message: "Proceso modificado." };
  });
}

/** The use case words its details for integrators (X-Error-Detail); staff get a sentence around them. */
function explainModifyFailure(error: unknown): never {
  if (!isAppError(error)) throw error;
  if (error.code === "NOT_FOUND") throw new AppError("NOT_FOUND", "El proceso no existe en su organización.");
  const lead = error.code === "FORBIDDEN" ? "No se puede hacer este cambio" : "No se guardó el cambio";
  throw new AppError(error.code, error.message === error.code ? `${lead}.` : `${lead}: ${error.message}.`, error.field);
}

export async function approveProcessAction(processId: unknown): Promise<ActionResult<Links>> {
  const id = ZProcessId.parse(processId);
  return runStaffAction("processes:approve", async (staff, services) => {
    const links = await approveProcess({ organizationId: staff.organizationId, processId: id, actor: staff.email }, { db: services.db, settings: linkSettings(services) });
    revalidatePath("/approvals");
    return { message: "Proceso aprobado; enlaces emitidos.", data: links };
  });
}

/** Lifts a signer's lock after failed identity tries: 3 new tries, the earlier ones kept (identity:review). */
export async function unlockSignerAction(input: unknown): Promise<ActionResult> {
  const { processId, signerId } = parseWith(ZUnlockSigner, input);
  return runStaffAction("identity:review", async (staff, services) => {
    await unlockSigner({ organizationId: staff.organizationId, processId, signerId, actor: staff.email }, services.db);
    revalidatePath(detailPath(processId));
    revalidatePath("/"); // the home lists locked signers too
    return { message: "Firmante desbloqueado: tiene 3 intentos nuevos." };
  });
}

export async function redeliverCallbackAction(processId: unknown): Promise<ActionResult> {
  const id = ZProcessId.parse(processId);
  return runStaffAction("processes:notify", async (staff, services) => {
    const outboxId = await redeliverCallback({ organizationId: staff.organizationId, processId: id, actor: staff.email }, services.db);
    revalidatePath(detailPath(id));
    revalidatePath("/"); // the home lists undelivered callbacks too
    return { message: `Callback encolado de nuevo (trabajo ${outboxId}).` };
  });
}
