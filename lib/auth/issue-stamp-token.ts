import crypto from "node:crypto";
import { SignJWT } from "jose";
import type { Db } from "@/db/client";
import { stampApiTokens } from "@/db/schema";
import { deriveKey, sha256Hex } from "@/lib/crypto/derive-key";
import { authenticateStaff } from "./authenticate-staff";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

export type StampApiVersion = "v2" | "v3";
export type IssueStampTokenSettings = { secretKey: Uint8Array; ttlDays: number };

/**
 * A stamp-API token for a staff user's e-mail + password. v2 tokens are opaque, v3 tokens are JWTs.
 * Upserting the one row per user and version is what supersedes every older token.
 */
export async function issueStampToken(
  input: { email: string; password: string; version: StampApiVersion; address?: string },
  { db, settings }: { db: Db; settings: IssueStampTokenSettings },
): Promise<{ token: string; expiresAt: Date }> {
  const staff = await authenticateStaff({ email: input.email, password: input.password, address: input.address }, db);
  if (!staff) throw new AppError("INVALID_CREDENTIALS");
  const expiresAt = new Date(Date.now() + settings.ttlDays * 24 * 3600 * 1000);
  const token =
    input.version === "v2"
      ? crypto.randomBytes(32).toString("base64url")
      : await new SignJWT({ ver: "v3", org: staff.organizationDomain })
          .setProtectedHeader({ alg: "HS256", typ: "JWT" })
          .setSubject(staff.userId)
          .setJti(crypto.randomUUID())
          .setIssuedAt()
          .setExpirationTime(expiresAt)
          .sign(deriveKey(settings.secretKey, "stamp-api-jwt"));
  const tokenHash = sha256Hex(token);
  await db.transaction(async (tx) => {
    await tx
      .insert(stampApiTokens)
      .values({ userId: staff.userId, apiVersion: input.version, tokenHash, expiresAt })
      .onConflictDoUpdate({
        target: [stampApiTokens.userId, stampApiTokens.apiVersion],
        set: { tokenHash, expiresAt, issuedAt: new Date() },
      });
    await recordAuditEvent(
      { organizationId: staff.organizationId, actor: staff.email, action: "stamp_token.issued", target: staff.userId, detail: { version: input.version, expiresAt: expiresAt.toISOString() } },
      tx,
    );
  });
  return { token, expiresAt };
}
