import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { registryPhotos } from "@/db/schema";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { decryptBiometric } from "@/lib/crypto/encrypt-biometric";

type Person = { organizationId: string; nat: string; docId: string };

export async function hasRegistryPhoto(person: Person, db: Db): Promise<boolean> {
  const [row] = await db.select({ id: registryPhotos.id }).from(registryPhotos).where(whereOf(person)).limit(1);
  return Boolean(row);
}

/** The decrypted reference portrait of one person, or null when the organization has none. */
export async function findRegistryPhoto(person: Person, { db, ...services }: { db: Db; blobs: BlobStore; secretKey: Uint8Array }): Promise<Uint8Array | null> {
  const [row] = await db.select({ blobKey: registryPhotos.blobKey }).from(registryPhotos).where(whereOf(person)).limit(1);
  const blob = row ? await services.blobs.get(row.blobKey) : null;
  return blob ? decryptBiometric(blob, services.secretKey, person.organizationId) : null;
}

const whereOf = (p: Person) => and(eq(registryPhotos.organizationId, p.organizationId), eq(registryPhotos.nat, p.nat), eq(registryPhotos.docId, p.docId));
