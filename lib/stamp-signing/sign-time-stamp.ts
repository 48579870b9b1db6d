import type { Services } from "@/lib/runtime/services";
import { AppError } from "@/lib/errors";
import type { StaffIdentity } from "@/lib/auth/authenticate-staff";
import { answerTimeStampRequest } from "@/lib/certificates/time-stamp-authority";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { generateTxToken } from "./generate-tx-token";
import { recordTimeStamp } from "./record-time-stamp";

const MAX_TSQ_BYTES = 64 * 1024;

/** signTimeStamp: a .tsq in, a .tsr from the built-in TSA out; a rejected request is a clear error. */
export type SignTimeStampInput = { caller: StaffIdentity; tsq?: Uint8Array };

export async function signTimeStamp(input: SignTimeStampInput, services: Pick<Services, "db" | "config">) {
  if (!input.tsq || input.tsq.length === 0) throw new AppError("VALIDATION", "tsq_file es obligatorio", "tsq_file");
  if (input.tsq.length > MAX_TSQ_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "tsq_file es demasiado grande", "tsq_file");
  const { reply: tsr, rejection } = await answerTimeStampRequest(input.tsq, { db: services.db, settings: pkiSettingsOf(services.config) });
  if (rejection) throw new AppError("VALIDATION", `Solicitud de sello de tiempo rechazada: ${rejection.failure}; ${rejection.reason}`, "tsq_file");
  const txToken = generateTxToken();
  // answered only once the row behind its tx_token is committed
  await recordTimeStamp({ organizationId: input.caller.organizationId, userId: input.caller.userId, txToken }, services.db);
  return { txToken, tsr };
}
