/** True when a driver error (PGlite or postgres.js, possibly wrapped by drizzle) is a unique violation of `constraint`. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: string; constraint?: string; constraint_name?: string; message?: string; cause?: unknown };
    if (candidate.code === "23505") {
      if (!constraint) return true;
      const name = candidate.constraint ?? candidate.constraint_name ?? "";
      return name === constraint || (candidate.message ?? "").includes(constraint);
    }
    current = candidate.cause;
  }
  return false;
}
