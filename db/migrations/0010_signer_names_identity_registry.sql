CREATE TABLE "identity_registry_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"nat" text NOT NULL,
	"doc_id" text NOT NULL,
	"given_name" text NOT NULL,
	"family_name" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "process_signers" ADD COLUMN "proposed_pinfo" jsonb;--> statement-breakpoint
ALTER TABLE "process_signers" ADD COLUMN "names_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "identity_registry_entries" ADD CONSTRAINT "identity_registry_entries_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "identity_registry_org_nat_doc_key" ON "identity_registry_entries" USING btree ("organization_id","nat","doc_id");--> statement-breakpoint
CREATE INDEX "identity_registry_organization_idx" ON "identity_registry_entries" USING btree ("organization_id");