import { bigint, check, index, pgSequence, pgTable, text, timestamp, uniqueIndex, uuid, integer } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { organizations, users } from "./organizations";

import { bytea } from "./bytea";

/** RFC 3161 serial numbers: unique and monotonic across every instance sharing the database. */
export const tsaSerialSeq = pgSequence("tsa_serial_seq", { startWith: 1 });
export const crlNumberSeq = pgSequence("crl_number_seq", { startWith: 1 });

/**
 * Certificates the service holds with their private keys, encrypted with AES-256-GCM under
 * SECRET_KEY (or under a PIN-derived key for certificate holders). `purpose` names the role:
 * root/issuing/tsa are platform-wide (organization null), agent belongs to an organization. With
 * PKCS11_MODULE set, new CA, TSA and agent keys live in the token instead and the row keeps only
 * the key's label there: a row holds a wrapped key or names a token key, never both.
 */
export const pkiCertificates = pgTable(
  "pki_certificates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["root", "issuing", "tsa", "agent", "signer", "holder"] }).notNull(),
    environment: text("environment", { enum: ["quality", "production"] }).notNull(),
    subject: text("subject").notNull(),
    serialNumberHex: text("serial_number_hex").notNull(),
    issuerName: text("issuer_name").notNull(),
    certificateDer: bytea("certificate_der").notNull(),
    chainDer: bytea("chain_der"),
    privateKeyEncrypted: bytea("private_key_encrypted"),
    /** CKA_LABEL of the private key in the PKCS#11 token (PKCS11_TOKEN_LABEL); the key never leaves it. */
    privateKeyLabel: text("private_key_label"),
    source: text("source", { enum: ["built-in", "pkcs12"] }).notNull().default("built-in"),
    notBefore: timestamp("not_before", { withTimezone: true }).notNull(),
    notAfter: timestamp("not_after", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("pki_certificates_issuer_serial_key").on(t.issuerName, t.serialNumberHex),
    index("pki_certificates_purpose_idx").on(t.purpose, t.environment, t.organizationId),
    // the CRL reuse check of every long-term signature asks for an issuer's newest revocation: only
    // the revoked rows are indexed, so it does not read every certificate the issuer ever issued
    index("pki_certificates_revoked_idx").on(t.issuerName, t.revokedAt).where(sql`${t.revokedAt} is not null`),
    // which token key a PKCS#11 label names (worker-pools.ts), asked at the first signing with each key
    index("pki_certificates_private_key_label_idx").on(t.privateKeyLabel).where(sql`${t.privateKeyLabel} is not null`),
    check("pki_certificates_one_key_place", sql`${t.privateKeyEncrypted} is null or ${t.privateKeyLabel} is null`),
  ],
);

/** Holders of a personal certificate for `digital` stamp signatures: sign_username + password + PIN-encrypted key. */
export const certificateHolders = pgTable(
  "certificate_holders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    signUsername: text("sign_username").notNull(),
    passwordHash: text("password_hash").notNull(),
    certificateId: uuid("certificate_id")
      .notNull()
      .references(() => pkiCertificates.id),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** Who asserted the holder's identity (staff e-mail or stamp-API user); null for holders enrolled before it was recorded. */
    enrolledBy: text("enrolled_by"),
    enrolledByUserId: uuid("enrolled_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("certificate_holders_org_username_key").on(t.organizationId, t.signUsername)],
);

/** updateSignCredentials: the certificate user name and password a staff user registered, encrypted. */
export const registeredSignCredentials = pgTable("registered_sign_credentials", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  encrypted: bytea("encrypted").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const crlIssues = pgTable("crl_issues", {
  issuerCertificateId: uuid("issuer_certificate_id")
    .primaryKey()
    .references(() => pkiCertificates.id, { onDelete: "cascade" }),
  crlNumber: bigint("crl_number", { mode: "bigint" }).notNull(),
  crlDer: bytea("crl_der").notNull(),
  nextUpdate: timestamp("next_update", { withTimezone: true }).notNull(),
});
