import { customType } from "drizzle-orm/pg-core";

/** Binary columns (certificates, encrypted keys, blob bodies) as Buffers on both drivers. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });
