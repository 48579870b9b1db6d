import { hash, verify } from "@node-rs/argon2";

// The library's default algorithm is argon2id; these are OWASP's baseline parameters (19 MiB, 2 passes).
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash of nothing, verified when the account does not exist so that timing does not reveal it. */
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword("no-such-account-placeholder");
  await verifyPassword(await dummyHash, password);
  return false;
}
