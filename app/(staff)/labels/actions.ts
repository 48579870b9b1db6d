"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runStaffAction, type ActionResult } from "@/lib/http/run-staff-action";
import { staffProcessCaller } from "@/lib/auth/staff-process-caller";
import { saveLabel } from "@/lib/labels/save-label";
import { deleteLabel } from "@/lib/labels/delete-label";
import { renameLabel } from "@/lib/labels/rename-label";
import { ZLabelBody, ZLabelName } from "@/lib/labels/schemas";
import { parseWith } from "@/lib/request-reading/parse-input";

const ZOwned = z.object({ owner: z.string().min(1).max(320), label: ZLabelName });
const ZRename = z.object({ owner: z.string().min(1).max(320), from: ZLabelName, to: ZLabelName });

/** Labels belong to an owner (usr_id); staff with labels:write act on any label of their organization as that owner. */
export async function createLabelAction(input: unknown): Promise<ActionResult> {
  return runStaffAction("labels:write", async (staff, { db }) => {
    const { label } = parseWith(ZLabelBody, input);
    await saveLabel({ caller: staffProcessCaller(staff), label }, db);
    revalidatePath("/labels");
    return { message: `Etiqueta ${label} creada.` };
  });
}

export async function renameLabelAction(input: unknown): Promise<ActionResult> {
  return runStaffAction("labels:write", async (staff, { db }) => {
    const { owner, from, to } = parseWith(ZRename, input);
    await renameLabel({ caller: { ...staffProcessCaller(staff), clientname: owner }, from, to }, db);
    revalidatePath("/labels");
    return { message: `Etiqueta ${from} renombrada a ${to}.` };
  });
}

export async function deleteLabelAction(input: unknown): Promise<ActionResult> {
  return runStaffAction("labels:write", async (staff, { db }) => {
    const { owner, label } = parseWith(ZOwned, input);
    await deleteLabel({ caller: { ...staffProcessCaller(staff), clientname: owner }, label }, db);
    revalidatePath("/labels");
    return { message: `Etiqueta ${label} eliminada.` };
  });
}
