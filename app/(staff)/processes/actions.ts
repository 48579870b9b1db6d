"use server";

import { revalidatePath } from "next/cache";
import { runStaffAction, type ActionResult } from "@/lib/auth/run-staff-action";
import { staffProcessCaller } from "@/lib/auth/staff-process-caller";
import { notifyProcess } from "@/lib/processes/notify-process";
import { rejectProcesses } from "@/lib/processes/reject-processes";
import { approveProcess } from "@/lib/processes/approve-process";
import { redeliverCallback } from "@/lib/callbacks/redeliver-callback";
import { ZProcessId } from "@/lib/processes/schemas";
import type { Services } from "@/lib/runtime/services";

const linkSettings = (services: Services) => ({ secretKey: services.config.secretKey, publicUrl: services.config.publicUrl });
const detailPath = (id: string) => `/processes/${encodeURIComponent(id)}`;
type Links = string | { link: string; nat_dni: string }[];

export async function notifyProcessAction(processId: unknown): Promise<ActionResult<Links>> {
  const id = ZProcessId.parse(processId);
  return runStaffAction("processes:notify", async (staff, services) => {
    const links = await notifyProcess({ caller: staffProcessCaller(staff), processId: id }, services.db, linkSettings(services));
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

export async function approveProcessAction(processId: unknown): Promise<ActionResult<Links>> {
  const id = ZProcessId.parse(processId);
  return runStaffAction("processes:approve", async (staff, services) => {
    const links = await approveProcess({ organizationId: staff.organizationId, processId: id, actor: staff.email }, services.db, linkSettings(services));
    revalidatePath("/approvals");
    return { message: "Proceso aprobado; enlaces emitidos.", data: links };
  });
}

export async function redeliverCallbackAction(processId: unknown): Promise<ActionResult> {
  const id = ZProcessId.parse(processId);
  return runStaffAction("processes:notify", async (staff, services) => {
    const outboxId = await redeliverCallback({ organizationId: staff.organizationId, processId: id, actor: staff.email }, services.db);
    revalidatePath(detailPath(id));
    return { message: `Callback encolado de nuevo (trabajo ${outboxId}).` };
  });
}
