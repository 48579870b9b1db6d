CREATE TABLE "organization_identity_providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"display_name" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_encrypted" "bytea" NOT NULL,
	"scopes" text NOT NULL,
	"document_number_claim" text NOT NULL,
	"given_name_claim" text NOT NULL,
	"family_name_claim" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signer_eid_logins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"signer_id" uuid NOT NULL,
	"link_id" uuid NOT NULL,
	"state" text NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "organization_identity_providers" ADD CONSTRAINT "organization_identity_providers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_eid_logins" ADD CONSTRAINT "signer_eid_logins_signer_id_process_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."process_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "organization_identity_providers_organization_key" ON "organization_identity_providers" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "signer_eid_logins_signer_idx" ON "signer_eid_logins" USING btree ("signer_id");