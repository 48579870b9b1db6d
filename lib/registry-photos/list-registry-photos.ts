import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { registryPhotos } from "@/db/schema";
import type { ListRegistryPhotosQuery, RegistryPhotoEntry } from "./schemas";

// JS dates carry milliseconds and created_at microseconds: page on the millisecond so a cursor never skips a row
const uploadedMs = sql`date_trunc('milliseconds', ${registryPhotos.createdAt})`;

/** The organization's registry photos (no image bytes), newest first; `nextCursor` is null on the last page. */
export async function listRegistryPhotos(
  input: { organizationId: string; query: ListRegistryPhotosQuery },
  db: Db,
): Promise<{ photos: RegistryPhotoEntry[]; nextCursor: string | null }> {
  const { query } = input;
  const [afterMs, afterId] = query.after ? query.after.split("_") : [];
  const rows = await db
    .select({ id: registryPhotos.id, nat: registryPhotos.nat, docId: registryPhotos.docId, createdAt: registryPhotos.createdAt })
    .from(registryPhotos)
    .where(
      and(
        eq(registryPhotos.organizationId, input.organizationId),
        query.after ? sql`(${uploadedMs}, ${registryPhotos.id}) < (${new Date(Number(afterMs)).toISOString()}::timestamptz, ${afterId}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(uploadedMs), desc(registryPhotos.id))
    .limit(query.limit + 1);
  const photos = rows.slice(0, query.limit);
  const last = photos[photos.length - 1];
  return { photos, nextCursor: rows.length > query.limit ? `${last.createdAt.getTime()}_${last.id}` : null };
}
