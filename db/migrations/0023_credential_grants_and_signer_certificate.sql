ALTER TABLE "api_credentials" ADD COLUMN "grants" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "process_signers" ADD COLUMN "certificate_sha256" text;--> statement-breakpoint
CREATE INDEX "process_signers_certificate_sha256_idx" ON "process_signers" USING btree ("certificate_sha256") WHERE "process_signers"."certificate_sha256" is not null;