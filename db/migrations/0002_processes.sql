CREATE TABLE "process_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"process_id" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"index" integer NOT NULL,
	"name" text NOT NULL,
	"pages" integer NOT NULL,
	"original_blob_key" text NOT NULL,
	"original_sha256" text NOT NULL,
	"current_blob_key" text NOT NULL,
	"sha256" text NOT NULL,
	"stamp_page_appended" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "process_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"process_id" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"signer_id" uuid,
	"actor" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "process_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"process_id" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"signer_id" uuid,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"failed_id_attempts" integer DEFAULT 0 NOT NULL,
	"locked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "process_signers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"process_id" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"nat" text NOT NULL,
	"doc_id" text NOT NULL,
	"signature_type" text DEFAULT 'advanced' NOT NULL,
	"sign_challenges" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"stamp_positions" jsonb NOT NULL,
	"contact_info" jsonb,
	"signer_alias" text DEFAULT '' NOT NULL,
	"sign_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"pinfo" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"failed_id_attempts" integer DEFAULT 0 NOT NULL,
	"facial_attempts" integer DEFAULT 0 NOT NULL,
	"identity_verified_at" timestamp with time zone,
	"locked_at" timestamp with time zone,
	"signed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "processes" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"sign_order" boolean DEFAULT false NOT NULL,
	"expire_at" timestamp with time zone NOT NULL,
	"link_expire_at" timestamp with time zone NOT NULL,
	"url_callback" text DEFAULT '' NOT NULL,
	"labels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"read_challenges" jsonb DEFAULT '["signerId"]'::jsonb NOT NULL,
	"created_by" uuid,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"approved_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "labels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"usr_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dev_mailbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"body" text NOT NULL,
	"process_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "callback_secret_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "process_documents" ADD CONSTRAINT "process_documents_process_id_processes_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."processes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "process_documents" ADD CONSTRAINT "process_documents_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "process_events" ADD CONSTRAINT "process_events_process_id_processes_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."processes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "process_events" ADD CONSTRAINT "process_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "process_links" ADD CONSTRAINT "process_links_process_id_processes_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."processes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "process_links" ADD CONSTRAINT "process_links_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "process_links" ADD CONSTRAINT "process_links_signer_id_process_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."process_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "process_signers" ADD CONSTRAINT "process_signers_process_id_processes_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."processes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "process_signers" ADD CONSTRAINT "process_signers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processes" ADD CONSTRAINT "processes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processes" ADD CONSTRAINT "processes_created_by_api_credentials_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."api_credentials"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "labels" ADD CONSTRAINT "labels_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dev_mailbox" ADD CONSTRAINT "dev_mailbox_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "process_documents_process_index_key" ON "process_documents" USING btree ("process_id","index");--> statement-breakpoint
CREATE INDEX "process_events_process_idx" ON "process_events" USING btree ("process_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "process_links_token_hash_key" ON "process_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "process_links_process_idx" ON "process_links" USING btree ("process_id");--> statement-breakpoint
CREATE UNIQUE INDEX "process_signers_process_position_key" ON "process_signers" USING btree ("process_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "process_signers_process_person_key" ON "process_signers" USING btree ("process_id","nat","doc_id");--> statement-breakpoint
CREATE INDEX "processes_org_created_idx" ON "processes" USING btree ("organization_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "processes_org_status_created_idx" ON "processes" USING btree ("organization_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "processes_status_expire_idx" ON "processes" USING btree ("status","expire_at");--> statement-breakpoint
CREATE UNIQUE INDEX "labels_org_owner_name_key" ON "labels" USING btree ("organization_id","usr_id","name");--> statement-breakpoint
CREATE INDEX "labels_org_name_c_idx" ON "labels" USING btree ("organization_id","name" collate "C" desc,"usr_id" collate "C" desc);--> statement-breakpoint
CREATE INDEX "dev_mailbox_org_created_idx" ON "dev_mailbox" USING btree ("organization_id","created_at");