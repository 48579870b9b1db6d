import { and, eq, isNull } from "drizzle-orm";
import { SignJWT } from "jose";
import { z } from "zod";
import type { Db } from "@/db/client";
import { apiCredentials, organizations } from "@/db/schema";
import { deriveKey } from "@/lib/crypto/derive-key";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { verifyAgainstNothing, verifyPassword } from "./password-hash";
import { throttleLogin } from "./throttle-logins";

export const ZProcessLogin = z.object({
  username: z.string().trim().toLowerCase().min(1).max(253),
  clientname: z.string().trim().toLowerCase().min(1).max(320),
  password: z.string().min(1).max(500),
});
export type ProcessLogin = z.infer<typeof ZProcessLogin>;

export const PROCESS_TOKEN_TTL_SECONDS = 12 * 3600;

/** Process-API login: organization domain + credential clientname + secret → a short-lived JWT. */
export async function issueProcessToken(input: ProcessLogin & { address?: string }, { db, secretKey }: { db: Db; secretKey: Uint8Array }): Promise<string> {
  const row = await throttleLogin({ account: `credential:${input.username}/${input.clientname}`, address: input.address ?? "unknown", check: () => checkCredential(input, db) }, db);
  if (!row) throw new AppError("INVALID_CREDENTIALS");
  return issueFor(row, secretKey, db);
}

async function checkCredential(input: ProcessLogin, db: Db) {
  const [row] = await db
    .select({ credential: apiCredentials, organization: organizations })
    .from(apiCredentials)
    .innerJoin(organizations, eq(apiCredentials.organizationId, organizations.id))
    .where(
      and(
        eq(organizations.domain, input.username),
        eq(apiCredentials.clientname, input.clientname),
        isNull(apiCredentials.revokedAt),
      ),
    )
    .limit(1);
  if (!row) {
    await verifyAgainstNothing(input.password);
    return null;
  }
  const valid = await verifyPassword(row.credential.secretHash, input.password);
  return valid && row.organization.status === "active" ? row : null;
}

async function issueFor(row: NonNullable<Awaited<ReturnType<typeof checkCredential>>>, secretKey: Uint8Array, db: Db): Promise<string> {
  await db.transaction(async (tx) => {
    await tx.update(apiCredentials).set({ lastUsedAt: new Date() }).where(eq(apiCredentials.id, row.credential.id));
    await recordAuditEvent(
      { organizationId: row.organization.id, actor: row.credential.clientname, action: "process_token.issued", target: row.credential.id, detail: { role: row.credential.role } },
      tx,
    );
  });
  // gen: a token of a secret that was since replaced (a re-assignment) stops working
  return new SignJWT({ org: row.organization.id, role: row.credential.role, gen: row.credential.secretGeneration })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(row.credential.id)
    .setIssuedAt()
    .setExpirationTime(`${PROCESS_TOKEN_TTL_SECONDS}s`)
    .sign(deriveKey(secretKey, "process-api-jwt"));
}
