ALTER TABLE "registry_photos" ADD COLUMN "supplied_by" jsonb;--> statement-breakpoint
ALTER TABLE "identity_reviews" ADD COLUMN "session_id" text;--> statement-breakpoint
ALTER TABLE "identity_reviews" ADD COLUMN "sole_reviewer_exception" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "signer_eid_logins" ADD COLUMN "session_id" text;