import { describe, expect, it } from "vitest";
import { describeError, ownFields } from "./log";

describe("log fields", () => {
  it("renames a field that would collide with pino's own keys (an identity level once overwrote the log level)", () => {
    expect(ownFields({ level: null, message: "x", requestId: "r", time: 1, pid: 2, attempt: 1 })).toEqual({ field_level: null, field_message: "x", field_requestId: "r", field_time: 1, field_pid: 2, attempt: 1 });
  });
});

// drizzle's shape: "Failed query: <sql>\\nparams: <values>", the driver's error (SQLSTATE, constraint, detail) as cause
class DrizzleQueryError extends Error {
  constructor(
    public query: string,
    public params: unknown[],
    cause: unknown,
  ) {
    super(`Failed query: ${query}\nparams: ${params.join(",")}`, { cause });
  }
}
const driverError = Object.assign(new Error('duplicate key value violates unique constraint "identity_reviews_pending_key"'), {
  code: "23505",
  constraint: "identity_reviews_pending_key",
  table: "identity_reviews",
  detail: "Key (doc_id)=(45678912) already exists.",
});

describe("error log fields", () => {
  it("a query error gives its class, SQLSTATE and constraint, never the statement's parameters", () => {
    const fields = describeError(new DrizzleQueryError("insert into identity_reviews values ($1, $2, $3)", ["45678912", "ANA QUISPE", "1990-01-02"], driverError));
    const line = JSON.stringify(fields);
    expect(fields).toMatchObject({ errorClass: "DrizzleQueryError", constraint: "identity_reviews_pending_key", causes: [{ class: "Error", code: "23505", constraint: "identity_reviews_pending_key", table: "identity_reviews" }] });
    for (const personal of ["45678912", "ANA QUISPE", "1990-01-02", "Failed query", "already exists"]) expect(line).not.toContain(personal);
  });

  it("a driver error alone is judged by its SQLSTATE", () => {
    const line = JSON.stringify(describeError(Object.assign(new Error('invalid input syntax for type uuid: "Ana Quispe"'), { code: "22P02" })));
    expect(line).toContain("22P02");
    expect(line).not.toContain("Ana Quispe");
  });

  it("other errors keep their message, and the stack keeps only its frames", () => {
    const fields = describeError(new TypeError("tar failed (2)"));
    expect(fields).toMatchObject({ errorClass: "TypeError", error: "tar failed (2)" });
    expect(String(fields.stack)).not.toContain("tar failed");
    expect(describeError("a string")).toEqual({ errorClass: "string" });
  });
});
