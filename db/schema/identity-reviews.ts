import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { organizations, users } from "./organizations";
import { processes, processLinks, processSigners } from "./processes";

export const identityReviewStatuses = ["pending", "approved", "rejected"] as const;
export type IdentityReviewStatus = (typeof identityReviewStatuses)[number];

/** What the reviewer is shown of the card besides the pictures (read by OCR in the face worker). */
export type IdentityReviewCard = {
  numberSource: "mrz" | "printed";
  mrzValid: boolean;
  /** The TD1 lines as read, when the card had a machine-readable zone. */
  mrzLines?: string[];
  mrzNames?: { lastName: string; firstName: string };
  /** YYYY-MM-DD, from the MRZ or the printed text. */
  expiresOn?: string;
  /** Why the expiry could not be trusted (broken check digit, zone and print disagree, unreadable): shown to the reviewer. */
  expiryProblem?: "mrz_expiry_check_digit" | "mrz_expiry_unreadable" | "expiry_inconsistent" | "expiry_unreadable";
};

/** The device and network that made the try, and the one that asked to sign. */
export type ReviewClient = { address: string; userAgent: string };

/**
 * A passed face match against a portrait the signer supplied (their ID photo) waits here for a staff
 * member with identity:review. The signer may say they want to sign meanwhile (sign_requested_at);
 * approval then queues the signature in the same transaction. One pending review per signer.
 */
export const identityReviews = pgTable(
  "identity_reviews",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    processId: text("process_id")
      .notNull()
      .references(() => processes.id, { onDelete: "cascade" }),
    signerId: uuid("signer_id")
      .notNull()
      .references(() => processSigners.id, { onDelete: "cascade" }),
    /** The link the signer used: the approval's signing job re-creates its token from the id. */
    linkId: uuid("link_id")
      .notNull()
      .references(() => processLinks.id, { onDelete: "cascade" }),
    status: text("status", { enum: identityReviewStatuses }).notNull().default("pending"),
    /** The facial try (1–3) this review decides. */
    attempt: integer("attempt").notNull(),
    checkId: text("check_id").notNull(),
    /** The signer session (cookie) that made the try: an approval lets that session sign, no other. */
    sessionId: text("session_id"),
    /** Encrypted blobs (lib/crypto/encrypt-biometric): the ID photo, the portrait cut from it, frame 0. */
    cardBlobKey: text("card_blob_key").notNull(),
    portraitBlobKey: text("portrait_blob_key").notNull(),
    selfieBlobKey: text("selfie_blob_key").notNull(),
    card: jsonb("card").$type<IdentityReviewCard>().notNull(),
    client: jsonb("client").$type<ReviewClient | null>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    signRequestedAt: timestamp("sign_requested_at", { withTimezone: true }),
    signRequestClient: jsonb("sign_request_client").$type<ReviewClient | null>(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedByEmail: text("decided_by_email"),
    /** The process's creator approved because nobody else in the organization may review (audited, shown on the review). */
    soleReviewerException: boolean("sole_reviewer_exception").notNull().default(false),
    /** Why it was rejected, shown to the signer. */
    reason: text("reason"),
  },
  (t) => [
    uniqueIndex("identity_reviews_one_pending_key").on(t.signerId).where(sql`${t.status} = 'pending'`),
    // a signer's latest review, read on every page load of a signer under the facial check
    index("identity_reviews_signer_created_idx").on(t.signerId, t.createdAt),
    index("identity_reviews_org_status_idx").on(t.organizationId, t.status, t.createdAt),
  ],
);
