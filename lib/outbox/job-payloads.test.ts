import { describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { enqueue } from "./enqueue";
import { checkJobPayload, jobPayloadSchemas, readJobPayload, type OutboxKind } from "./job-payloads";
import { PermanentJobFailure } from "./run-dispatcher";

const genuine: { [K in OutboxKind]: unknown } = {
  "stamp.sign": { transactionId: "0b7c6c1e-9a7e-4a51-8f1e-3f3c2f1d2e10" },
  "callback.deliver": { processId: "p1:abc", status: "completed" },
  "email.send": { processId: "p1:abc", signerId: "s1", linkId: "l1" },
  "whatsapp.send": { processId: "p1:abc", signerId: "s1", linkId: "l1" },
  "identity.sign_after_review": { reviewId: "r1" },
};

describe("outbox job payloads", () => {
  it.each(Object.keys(jobPayloadSchemas) as OutboxKind[])("%s: a genuine payload passes, a forged one is refused naming the field", (kind) => {
    expect(checkJobPayload(kind, genuine[kind])).toMatchObject({ ok: true });
    const [field] = Object.keys(genuine[kind] as object);
    for (const forged of [{}, { ...(genuine[kind] as object), [field]: 42 }, { ...(genuine[kind] as object), [field]: "x".repeat(201) }, null, "text"]) {
      const checked = checkJobPayload(kind, forged);
      expect(checked.ok).toBe(false);
      if (!checked.ok && forged && typeof forged === "object") expect(checked.reason).toContain(field);
    }
  });

  it("callback.deliver rows queued before the event was fixed (no status) still read", () => {
    expect(checkJobPayload("callback.deliver", { processId: "p1:abc" })).toEqual({ ok: true, payload: { processId: "p1:abc" } });
  });

  it("a handler's read refuses for good a payload that fails its schema, and a job of another kind", () => {
    expect(readJobPayload({ kind: "stamp.sign", payload: { transactionId: "t1" } }, ["stamp.sign"])).toEqual({ transactionId: "t1" });
    expect(() => readJobPayload({ kind: "stamp.sign", payload: { transactionId: 7 } }, ["stamp.sign"])).toThrow(PermanentJobFailure);
    expect(() => readJobPayload({ kind: "email.send", payload: genuine["email.send"] as Record<string, unknown> }, ["stamp.sign"])).toThrow(PermanentJobFailure);
    expect(() => readJobPayload({ kind: "made.up", payload: {} }, ["stamp.sign"])).toThrow(/made.up/);
  });

  it("enqueue refuses a malformed payload before it writes anything", async () => {
    const untouchable = new Proxy({}, { get: () => { throw new Error("the database was used"); } }) as Db;
    // the type allows any string; the schema does not allow an empty one
    const error = await enqueue({ kind: "stamp.sign", payload: { transactionId: "" } }, untouchable).catch((e: unknown) => e);
    expect(String(error)).toMatch(/stamp.sign payload: transactionId/);
  });
});
