import { and, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { facialTickets, processSigners } from "@/db/schema";
import { FACIAL_TICKET_SECONDS } from "./facial-challenge";
import { MAX_FACIAL_ATTEMPTS } from "./open-signing-link";
import { SignerFlowError } from "./signer-flow-error";

/** Tickets a signer may get per TICKET_WINDOW_SECONDS (FACIAL_TICKET_LIMIT overrides it; tests raise it). */
export const DEFAULT_TICKETS_PER_WINDOW = 6;
export const TICKET_WINDOW_SECONDS = 10 * 60;
/** Tries that were not counted (unusable picture, card refused, late or unused ticket) a signer may make per hour. */
export const RETRIES_PER_WINDOW = 10;
export const RETRY_WINDOW_SECONDS = 60 * 60;

/** Read on every call, like FACE_MATCH_THRESHOLD; the value was validated at start (lib/config). */
function ticketsPerWindow(): number {
  const value = Number(process.env.FACIAL_TICKET_LIMIT);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_TICKETS_PER_WINDOW;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Locks the signer's row: every ticket decision about one signer is made by one transaction at a time, on any instance. */
async function lockSigner(signerId: string, tx: Tx) {
  const [row] = await tx.select({ facialAttempts: processSigners.facialAttempts, lockedAt: processSigners.lockedAt }).from(processSigners).where(eq(processSigners.id, signerId)).for("update");
  if (!row || row.lockedAt || row.facialAttempts >= MAX_FACIAL_ATTEMPTS) throw new SignerFlowError("locked");
  return row;
}

/** Count and seconds until the oldest one leaves the window, of the signer's tickets issued in the last `seconds`. */
async function countRecent(input: { signerId: string; column: typeof facialTickets.issuedAt; seconds: number }, tx: Tx) {
  const since = sql`now() - make_interval(secs => ${input.seconds})`;
  const [row] = await tx
    .select({
      count: sql<number>`count(*)::int`,
      retryAfter: sql<number>`coalesce(ceil(extract(epoch from min(${input.column}) + make_interval(secs => ${input.seconds}) - now())), 1)::int`,
    })
    .from(facialTickets)
    .where(and(eq(facialTickets.signerId, input.signerId), gt(input.column, since)));
  return { count: row.count, retryAfter: Math.max(1, row.retryAfter) };
}

/**
 * Refuses (429) a signer who used up the uncounted retries of the last hour. A retry is an upload
 * that was not judged (or is being judged right now), and also a ticket left unused past its 90 s:
 * asking for tickets only to see which movements come up ("ticket fishing") spends the same budget.
 */
async function refuseSpentRetries(signerId: string, tx: Tx): Promise<void> {
  const since = sql`now() - make_interval(secs => ${RETRY_WINDOW_SECONDS})`;
  const spentAt = sql`coalesce(${facialTickets.usedAt}, ${facialTickets.issuedAt})`;
  const [retries] = await tx
    .select({
      count: sql<number>`count(*)::int`,
      retryAfter: sql<number>`coalesce(ceil(extract(epoch from min(${spentAt}) + make_interval(secs => ${RETRY_WINDOW_SECONDS}) - now())), 1)::int`,
    })
    .from(facialTickets)
    .where(
      and(
        eq(facialTickets.signerId, signerId),
        gt(spentAt, since),
        or(inArray(facialTickets.outcome, ["retry", "pending"]), and(isNull(facialTickets.usedAt), lt(facialTickets.issuedAt, sql`now() - make_interval(secs => ${FACIAL_TICKET_SECONDS})`))),
      ),
    );
  if (retries.count >= RETRIES_PER_WINDOW) throw new SignerFlowError("too_many_retries", undefined, Math.max(1, retries.retryAfter));
}

/**
 * Records a new ticket for the signer, or refuses with 429 when the signer already got the allowed
 * tickets in the last 10 minutes or has no uncounted retry left this hour (a ticket it could not use).
 */
export async function admitFacialTicket(input: { signerId: string; nonce: string }, db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await lockSigner(input.signerId, tx);
    const tickets = await countRecent({ signerId: input.signerId, column: facialTickets.issuedAt, seconds: TICKET_WINDOW_SECONDS }, tx);
    if (tickets.count >= ticketsPerWindow()) throw new SignerFlowError("too_many_tickets", undefined, tickets.retryAfter);
    await refuseSpentRetries(input.signerId, tx);
    await tx.insert(facialTickets).values({ nonce: input.nonce, signerId: input.signerId });
  });
}

/**
 * Spends a ticket on a frames upload and counts the try, in one transaction under the signer's lock:
 * a ticket works once whatever the outcome (a second upload with it is refused and counts nothing),
 * a locked signer or a fourth try is refused, and so is a signer with no uncounted retry left.
 * Returns the try's number (1–3).
 */
export async function spendFacialTicket(input: { signerId: string; nonce: string }, db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const signer = await lockSigner(input.signerId, tx);
    const [ticket] = await tx.select({ usedAt: facialTickets.usedAt }).from(facialTickets).where(and(eq(facialTickets.nonce, input.nonce), eq(facialTickets.signerId, input.signerId)));
    if (!ticket) throw new SignerFlowError("ticket_invalid");
    if (ticket.usedAt) throw new SignerFlowError("ticket_used");
    await refuseSpentRetries(input.signerId, tx);
    await tx
      .update(facialTickets)
      .set({ usedAt: sql`now()`, outcome: "pending" })
      .where(and(eq(facialTickets.nonce, input.nonce), isNull(facialTickets.usedAt)));
    await tx
      .update(processSigners)
      .set({ facialAttempts: signer.facialAttempts + 1 })
      .where(eq(processSigners.id, input.signerId));
    return signer.facialAttempts + 1;
  });
}

/** What the spent ticket's try turned out to be: `retry` also gives the counted try back. */
export async function settleFacialTicket(input: { signerId: string; nonce: string; outcome: "retry" | "counted" }, db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(facialTickets).set({ outcome: input.outcome }).where(eq(facialTickets.nonce, input.nonce));
    if (input.outcome === "retry") {
      await tx
        .update(processSigners)
        .set({ facialAttempts: sql`greatest(${processSigners.facialAttempts} - 1, 0)` })
        .where(eq(processSigners.id, input.signerId));
    }
  });
}
