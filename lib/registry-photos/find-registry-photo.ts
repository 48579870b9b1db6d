import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { registryPhotos } from "@/db/schema";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { decryptBiometric } from "@/lib/crypto/encrypt-biometric";
import type { ReferenceSupplier } from "@/lib/identity-assurance/identity-level";

type Person = { organizationId: string; nat: string; docId: string };

export async function hasRegistryPhoto(person: Person, db: Db): Promise<boolean> {
  const [row] = await db.select({ id: registryPhotos.id }).from(registryPhotos).where(whereOf(person)).limit(1);
  return Boolean(row);
}

export type RegistryReference = { photo: Uint8Array; suppliedBy: ReferenceSupplier | null };

/** The decrypted reference portrait of one person and who supplied it, or null when the organization has none. */
export async function findRegistryPhoto(person: Person, { db, ...services }: { db: Db; blobs: BlobStore; secretKey: Uint8Array }): Promise<RegistryReference | null> {
  const [row] = await db.select({ blobKey: registryPhotos.blobKey, suppliedBy: registryPhotos.suppliedBy }).from(registryPhotos).where(whereOf(person)).limit(1);
  const blob = row ? await services.blobs.get(row.blobKey) : null;
  return blob && row ? { photo: decryptBiometric(blob, services.secretKey, person.organizationId), suppliedBy: row.suppliedBy } : null;
}

const whereOf = (p: Person) => and(eq(registryPhotos.organizationId, p.organizationId), eq(registryPhotos.nat, p.nat), eq(registryPhotos.docId, p.docId));
