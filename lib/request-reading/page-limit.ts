import { z } from "zod";

export const MAX_PAGE_LIMIT = 100;

/**
 * The `limit` of a paged list. The spec sets no upper bound, so a larger value is read as the
 * largest page we serve (a client asking for 500 gets 100 and a 206 cursor) instead of a 400.
 */
export const ZPageLimit = z.preprocess(
  (value) => {
    if (value === "" || value === null || value === undefined) return undefined;
    const n = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
    return typeof n === "number" && Number.isInteger(n) && n > MAX_PAGE_LIMIT ? MAX_PAGE_LIMIT : n;
  },
  z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(20).describe(`Page size; values above ${MAX_PAGE_LIMIT} are read as ${MAX_PAGE_LIMIT}`),
);
