import type { Db } from "@/db/client";
import { AppError } from "@/lib/errors";
import type { StaffIdentity } from "@/lib/auth/authenticate-staff";
import { loadAgentSigner } from "@/lib/certificates/load-agent-signer";
import type { PkiSettings } from "@/lib/certificates/load-platform-pki";
import type { CmsSignerInput } from "@/lib/pki/prepare-cms-signer";
import type { SignPdfFields } from "./schemas";
import { unlockHolderSigner } from "./unlock-holder-signer";
import { readRegisteredSignCredentials } from "./update-sign-credentials";

/**
 * agente and otp sign with the organization's agent certificate; digital unlocks the holder's own
 * key with sign_username/sign_password (sent now or registered with updateSignCredentials) + PIN.
 */
export async function resolveStampSigner({ caller, fields }: { caller: StaffIdentity; fields: SignPdfFields }, { db, settings }: { db: Db; settings: PkiSettings }): Promise<CmsSignerInput> {
  if (fields.sign_type !== "digital") return loadAgentSigner(caller.organizationId, { db, settings });
  let username = fields.sign_username;
  let password = fields.sign_password;
  if (!username || !password) {
    const registered = await readRegisteredSignCredentials(caller.userId, { db, secretKey: settings.secretKey });
    username ??= registered?.signUsername;
    password ??= registered?.signPassword;
  }
  if (!username || !password) {
    throw new AppError("VALIDATION", "sign_username y sign_password son obligatorios para sign_type digital (o regístrelos con updateSignCredentials)", username ? "sign_password" : "sign_username");
  }
  const { signer } = await unlockHolderSigner({ organizationId: caller.organizationId, signUsername: username, signPassword: password, pin: fields.sign_pin! }, { db, secretKey: settings.secretKey });
  return signer;
}
