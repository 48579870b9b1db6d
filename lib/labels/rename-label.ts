import type { Db } from "@/db/client";
import type { ProcessCaller } from "@/lib/auth/verify-process-token";
import { deleteLabel } from "./delete-label";
import { saveLabel } from "./save-label";

/**
 * A label has no rename in the API: the new name is created and the old one deleted, in one
 * transaction so a failure leaves the old label in place. Processes keep the names they carry.
 */
export async function renameLabel(input: { caller: ProcessCaller; from: string; to: string }, db: Db): Promise<"ok"> {
  if (input.from === input.to) return "ok";
  return db.transaction(async (tx) => {
    await saveLabel({ caller: input.caller, label: input.to }, tx);
    return deleteLabel({ caller: input.caller, label: input.from }, tx);
  });
}
