import { describe, expect, it } from "vitest";
import { jobPayloadSchemas } from "@/lib/outbox/job-payloads";
import type { Services } from "@/lib/runtime/services";
import { cpuTaskContracts } from "./cpu-task-contracts";
import { cpuTasks } from "./cpu-tasks";
import { jobHandlers } from "./job-handlers";

const sorted = (keys: string[]) => [...keys].sort();

describe("typed boundaries", () => {
  it("every worker task has a contract, and every contract an implementation", () => {
    expect(sorted(Object.keys(cpuTasks))).toEqual(sorted(Object.keys(cpuTaskContracts)));
    expect(Object.keys(cpuTaskContracts).length).toBeGreaterThan(0);
  });

  it("every outbox kind with a handler has a payload schema, and every schema a handler", () => {
    // the handler factories only keep `services`; these two settings are read when the table is built
    const services = { config: { secretKey: new Uint8Array(32), publicUrl: "http://localhost" } } as unknown as Services;
    expect(sorted(Object.keys(jobHandlers(services)))).toEqual(sorted(Object.keys(jobPayloadSchemas)));
  });
});
