import { sql } from "drizzle-orm";
import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { SignerIdentity } from "@/lib/identity-assurance/identity-level";
import { apiCredentials, organizations } from "./organizations";

export const processStatuses = ["pending", "approval_pending", "signed", "rejected", "expired"] as const;
export type ProcessStatus = (typeof processStatuses)[number];

export const signerStatuses = ["pending", "signed", "rejected"] as const;
export type SignerStatus = (typeof signerStatuses)[number];

/** One stamp per file: page and x/y are computed by the service (grid on the appended page). */
export type StampSlot = { page: number; x: number; y: number; size: number; orientation: "horizontal" | "vertical" };
/** Keyed by file index, then page number (the wire shape of the spec). */
export type StampPositions = Record<string, Record<string, StampSlot>>;
export type SignerContact = { type: "email" | "whatsapp"; value: string; tz: string; notified: boolean };
export type SignerPinfo = { given_name: string; family_name: string };
/** `session`: the signer session (cookie) that made the try; only that session may sign on it. */
export type FacialCheck = { result: boolean; msg: string; id: string; expire: number; selfie: string; session?: string };
export type SignData = { signAction?: string; facial?: FacialCheck; date?: number; result?: string; identity?: SignerIdentity };

/** A signature process (folio). The id is `<32 hex>:<16 hex>` like the original service's. */
export const processes = pgTable(
  "processes",
  {
    id: text("id").primaryKey(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    status: text("status", { enum: processStatuses }).notNull().default("pending"),
    description: text("description").notNull().default(""),
    signOrder: boolean("sign_order").notNull().default(false),
    expireAt: timestamp("expire_at", { withTimezone: true }).notNull(),
    linkExpireAt: timestamp("link_expire_at", { withTimezone: true }).notNull(),
    urlCallback: text("url_callback").notNull().default(""),
    labels: jsonb("labels").$type<string[]>().notNull().default([]),
    readChallenges: jsonb("read_challenges").$type<string[]>().notNull().default(["signerId"]),
    createdBy: uuid("created_by").references(() => apiCredentials.id, { onDelete: "set null" }),
    /** clientname of the creating credential: the process's per_id (owner) in payloads. */
    createdByName: text("created_by_name").notNull(),
    // set from JS with millisecond precision so a keyset cursor round-trips exactly
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    approvedAt: timestamp("approved_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    /** Lowest PAdES level among the signatures of the completed documents (B-LTA when all is well). */
    padesLevel: text("pades_level"),
  },
  (t) => [
    index("processes_org_created_idx").on(t.organizationId, t.createdAt.desc(), t.id.desc()),
    index("processes_org_status_created_idx").on(t.organizationId, t.status, t.createdAt.desc(), t.id.desc()),
    index("processes_status_expire_idx").on(t.status, t.expireAt),
    // the staff home: processes about to expire, and completions per day
    index("processes_org_status_expire_idx").on(t.organizationId, t.status, t.expireAt),
    index("processes_org_completed_idx").on(t.organizationId, t.completedAt),
  ],
);

export const processDocuments = pgTable(
  "process_documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    processId: text("process_id")
      .notNull()
      .references(() => processes.id, { onDelete: "cascade" }),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    index: integer("index").notNull(),
    name: text("name").notNull(),
    /** Pages of the uploaded file (before the stamp page). */
    pages: integer("pages").notNull(),
    originalBlobKey: text("original_blob_key").notNull(),
    originalSha256: text("original_sha256").notNull(),
    /** Latest signed revision (the original until the first signature). */
    currentBlobKey: text("current_blob_key").notNull(),
    sha256: text("sha256").notNull(),
    stampPageAppended: boolean("stamp_page_appended").notNull().default(false),
    /**
     * The lowest PAdES level derived, as each was made, for the process signatures in the current
     * revision, before any document time-stamp; null with none, or when one has none (the last
     * signer then measures the file in full).
     */
    signaturesLevel: text("signatures_level"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("process_documents_process_index_key").on(t.processId, t.index)],
);

export const processSigners = pgTable(
  "process_signers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    processId: text("process_id")
      .notNull()
      .references(() => processes.id, { onDelete: "cascade" }),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** 0-based order of creation; also the signer's slot in the stamp grid. */
    position: integer("position").notNull(),
    nat: text("nat").notNull(),
    docId: text("doc_id").notNull(),
    signatureType: text("signature_type").notNull().default("advanced"),
    signChallenges: jsonb("sign_challenges").$type<string[]>().notNull().default([]),
    stampPositions: jsonb("stamp_positions").$type<StampPositions>().notNull(),
    contactInfo: jsonb("contact_info").$type<SignerContact | null>(),
    signerAlias: text("signer_alias").notNull().default(""),
    signData: jsonb("sign_data").$type<SignData>().notNull().default({}),
    /** The names the signer confirmed (wire `pinfo`); null until they do. */
    pinfo: jsonb("pinfo").$type<SignerPinfo | null>(),
    /** Names the creator gave for this signer, only proposed to them on the identification step. */
    proposedPinfo: jsonb("proposed_pinfo").$type<SignerPinfo | null>(),
    namesConfirmedAt: timestamp("names_confirmed_at", { withTimezone: true }),
    /** SHA-256 (hex) of the certificate the signer signed with: /api/verify finds our record of the signature by it. */
    certificateSha256: text("certificate_sha256"),
    status: text("status", { enum: signerStatuses }).notNull().default("pending"),
    failedIdAttempts: integer("failed_id_attempts").notNull().default(0),
    facialAttempts: integer("facial_attempts").notNull().default(0),
    identityVerifiedAt: timestamp("identity_verified_at", { withTimezone: true }),
    /** How strongly this signer was identified (lib/identity-assurance); null until a level is proven. */
    identity: jsonb("identity").$type<SignerIdentity | null>(),
    lockedAt: timestamp("locked_at", { withTimezone: true }),
    signedAt: timestamp("signed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("process_signers_process_position_key").on(t.processId, t.position),
    uniqueIndex("process_signers_process_person_key").on(t.processId, t.nat, t.docId),
    // the staff home: signatures per day, and the few locked signers among many
    index("process_signers_org_signed_idx").on(t.organizationId, t.signedAt),
    // the process list filtered by a signer's ID number
    index("process_signers_org_doc_idx").on(t.organizationId, t.docId),
    index("process_signers_org_locked_idx").on(t.organizationId).where(sql`${t.lockedAt} is not null`),
    // /api/verify: our record of the signature a certificate made
    index("process_signers_certificate_sha256_idx").on(t.certificateSha256).where(sql`${t.certificateSha256} is not null`),
  ],
);

/**
 * Signing links. The token is HMAC(link id) under a key derived from SECRET_KEY, so the database
 * holds only its hash and the outbox can re-create the link from the id without storing it.
 * signer_id is null for the shared link of a process.
 */
export const processLinks = pgTable(
  "process_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    processId: text("process_id")
      .notNull()
      .references(() => processes.id, { onDelete: "cascade" }),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    signerId: uuid("signer_id").references(() => processSigners.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** Wrong ID numbers typed on a shared link (per-signer links count on the signer). */
    failedIdAttempts: integer("failed_id_attempts").notNull().default(0),
    lockedAt: timestamp("locked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("process_links_token_hash_key").on(t.tokenHash), index("process_links_process_idx").on(t.processId)],
);

/** Timeline of a process: creation, notifications, identity checks, signatures, rejection, expiry. */
export const processEvents = pgTable(
  "process_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    processId: text("process_id")
      .notNull()
      .references(() => processes.id, { onDelete: "cascade" }),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    signerId: uuid("signer_id"),
    actor: text("actor"),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("process_events_process_idx").on(t.processId, t.createdAt), index("process_events_org_idx").on(t.organizationId, t.id)],
);
