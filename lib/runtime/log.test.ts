import { describe, expect, it } from "vitest";
import { ownFields } from "./log";

describe("log fields", () => {
  it("renames a field that would collide with pino's own keys (an identity level once overwrote the log level)", () => {
    expect(ownFields({ level: null, message: "x", requestId: "r", time: 1, pid: 2, attempt: 1 })).toEqual({ field_level: null, field_message: "x", field_requestId: "r", field_time: 1, field_pid: 2, attempt: 1 });
  });
});
