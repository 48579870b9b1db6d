CREATE TABLE "identity_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"process_id" text NOT NULL,
	"signer_id" uuid NOT NULL,
	"link_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt" integer NOT NULL,
	"check_id" text NOT NULL,
	"card_blob_key" text NOT NULL,
	"portrait_blob_key" text NOT NULL,
	"selfie_blob_key" text NOT NULL,
	"card" jsonb NOT NULL,
	"client" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sign_requested_at" timestamp with time zone,
	"sign_request_client" jsonb,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"decided_by_email" text,
	"reason" text
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "identity_review_required" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_reviews" ADD CONSTRAINT "identity_reviews_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_reviews" ADD CONSTRAINT "identity_reviews_process_id_processes_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."processes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_reviews" ADD CONSTRAINT "identity_reviews_signer_id_process_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."process_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_reviews" ADD CONSTRAINT "identity_reviews_link_id_process_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."process_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_reviews" ADD CONSTRAINT "identity_reviews_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "identity_reviews_one_pending_key" ON "identity_reviews" USING btree ("signer_id") WHERE "identity_reviews"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "identity_reviews_org_status_idx" ON "identity_reviews" USING btree ("organization_id","status","created_at");