import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { processSingleton } from "@/lib/process-wide/singleton";
import { KNOWN_ROUTES } from "./known-routes";

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "firmaviva_" });
  const registers = [registry];
  return {
    registry,
    httpDuration: new Histogram({
      name: "firmaviva_http_request_duration_seconds",
      help: "API request durations, by route (a known route pattern, parameters as :id; any other path: other), method and status",
      labelNames: ["route", "method", "status"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    signatures: new Counter({
      name: "firmaviva_signatures_total",
      help: "PDF signatures made, by kind (stamp, process) and PAdES level reached (unmeasured: a process signer before the last)",
      labelNames: ["kind", "pades_level"] as const,
      registers,
    }),
    levelAudits: new Counter({
      name: "firmaviva_level_audits_total",
      help: "Sampled full verifications of a recorded PAdES level, by kind and outcome (agrees, disagrees, unmeasured)",
      labelNames: ["kind", "outcome"] as const,
      registers,
    }),
    levelDisagreements: new Counter({
      name: "firmaviva_level_disagreements_total",
      help: "Outputs whose recorded PAdES level differs from the level a full verification finds (an alert: should stay 0)",
      labelNames: ["kind", "recorded", "measured"] as const,
      registers,
    }),
    timeStampTokens: new Counter({ name: "firmaviva_time_stamp_tokens_total", help: "Time-stamp tokens issued by the built-in TSA", registers }),
    outboxJobs: new Gauge({ name: "firmaviva_outbox_jobs", help: "Outbox rows by status (pending, running, dead) at scrape time", labelNames: ["status"] as const, registers }),
    outboxOldestAge: new Gauge({ name: "firmaviva_outbox_oldest_pending_age_seconds", help: "Age of the oldest due pending or running outbox job (0 when none)", registers }),
    poolQueue: new Gauge({ name: "firmaviva_pool_queue_length", help: "Tasks waiting for a worker, by pool (cpu, face)", labelNames: ["pool"] as const, registers }),
    poolWorkers: new Gauge({ name: "firmaviva_pool_workers", help: "Live worker threads, by pool (idle workers included)", labelNames: ["pool"] as const, registers }),
    poolWorkerMemory: new Gauge({
      name: "firmaviva_pool_worker_memory_bytes",
      help: "Memory of a pool's worker threads at scrape time, summed over its workers, by part (heap_total, heap_used, new_space, code, external)",
      labelNames: ["pool", "part"] as const,
      registers,
    }),
    poolBusy: new Gauge({ name: "firmaviva_pool_busy_workers", help: "Workers running a task, by pool", labelNames: ["pool"] as const, registers }),
    poolTaskDuration: new Histogram({
      name: "firmaviva_pool_task_duration_seconds",
      help: "Worker-pool task durations from queueing to answer, by pool, task kind and outcome (ok, error)",
      labelNames: ["pool", "task", "outcome"] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
      registers,
    }),
    loginAttempts: new Counter({
      name: "firmaviva_login_attempts_total",
      help: "Password logins under the throttle, by outcome (succeeded, failed, throttled)",
      labelNames: ["outcome"] as const,
      registers,
    }),
    facialTries: new Counter({
      name: "firmaviva_facial_tries_total",
      help: "Facial checks of signers, by outcome (passed, under_review, failed, locked, retry)",
      labelNames: ["outcome"] as const,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * The process-wide registry. Next.js bundles each route apart, so it lives on globalThis like the
 * services; a second registry would report only what its own bundle counted. Worker threads have
 * their own globalThis: their work is counted by the main thread that hands it to them.
 */
export function metrics(): Metrics {
  return processSingleton("firmaviva.metrics", createMetrics);
}

const matchers = KNOWN_ROUTES.map((pattern) => {
  const source = pattern
    .split("/")
    .map((segment) => (segment.startsWith("[...") ? ".+" : segment.startsWith("[") ? "[^/]+" : segment.replace(/[.*+?^${}()|\\]/g, "\\$&")))
    .join("/");
  return { regex: new RegExp(`^${source}/?$`), label: pattern.replace(/\[(?:\.\.\.)?[^\]]+\]/g, ":id") };
});

/**
 * A route label from a fixed list (the route handlers under app/), with every parameter as `:id`:
 * a made-up path is `other`, so anonymous requests cannot add series, and tokens never become labels.
 */
export function routeLabel(pathname: string): string {
  return matchers.find((m) => m.regex.test(pathname))?.label ?? "other";
}
