import type { Db } from "@/db/client";
import { registeredSignCredentials } from "@/db/schema";
import { encryptPrivateKey, decryptPrivateKey } from "@/lib/pki/encrypt-private-key";
import { eq } from "drizzle-orm";

const aad = (userId: string) => `sign-credentials:${userId}`;

/** updateSignCredentials: remembers the caller's certificate user name and password, encrypted under SECRET_KEY. */
export async function updateSignCredentials(
  input: { userId: string; signUsername: string; signPassword: string },
  { db, secretKey }: { db: Db; secretKey: Uint8Array },
) {
  const plain = new TextEncoder().encode(JSON.stringify({ u: input.signUsername, p: input.signPassword }));
  const encrypted = encryptPrivateKey(plain, secretKey, aad(input.userId));
  await db
    .insert(registeredSignCredentials)
    .values({ userId: input.userId, encrypted })
    .onConflictDoUpdate({ target: registeredSignCredentials.userId, set: { encrypted, updatedAt: new Date() } });
}

/** The credentials registered by updateSignCredentials, or null. */
export async function readRegisteredSignCredentials(userId: string, { db, secretKey }: { db: Db; secretKey: Uint8Array }) {
  const [row] = await db.select().from(registeredSignCredentials).where(eq(registeredSignCredentials.userId, userId));
  if (!row) return null;
  const plain = decryptPrivateKey(new Uint8Array(row.encrypted), secretKey, aad(userId));
  const { u, p } = JSON.parse(new TextDecoder().decode(plain)) as { u: string; p: string };
  return { signUsername: u, signPassword: p };
}
