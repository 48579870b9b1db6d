import type { Db } from "@/db/client";
import { processEvents } from "@/db/schema";

export type ProcessEventKind =
  | "created"
  | "modified"
  | "approved"
  | "links_issued"
  | "notified"
  | "identity_verified"
  | "identity_failed"
  | "session_started"
  | "names_confirmed"
  | "facial_recorded"
  | "signer_unlocked"
  | "eid_recorded"
  | "signed"
  | "declined"
  | "completed"
  | "rejected"
  | "expired"
  | "callback_requeued"
  | "identity_review_requested"
  | "identity_review_approved"
  | "identity_review_rejected"
  | "sign_requested";

export type ProcessEvent = { processId: string; organizationId: string; kind: ProcessEventKind; signerId?: string | null; actor?: string | null; detail?: Record<string, unknown> };

/** Appends to the timeline of a process; call it inside the transaction that made the change. */
export async function recordProcessEvent(event: ProcessEvent, db: Db) {
  await recordProcessEvents([event], db);
}

/**
 * Appends several events in one statement, in the order given: each row's id is drawn in VALUES
 * order, and the timeline orders by time, then id (all rows of one transaction share its time).
 */
export async function recordProcessEvents(events: ProcessEvent[], db: Db) {
  if (events.length === 0) return;
  await db.insert(processEvents).values(
    events.map((event) => ({
      processId: event.processId,
      organizationId: event.organizationId,
      kind: event.kind,
      signerId: event.signerId ?? null,
      actor: event.actor ?? null,
      detail: event.detail ?? {},
    })),
  );
}
