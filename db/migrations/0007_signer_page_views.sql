CREATE TABLE "signer_page_views" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"signer_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"process_id" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"page_index" integer NOT NULL,
	"document_sha256" text NOT NULL,
	"address" text NOT NULL,
	"user_agent" text NOT NULL,
	"shown_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signer_page_views" ADD CONSTRAINT "signer_page_views_signer_id_process_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."process_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_page_views" ADD CONSTRAINT "signer_page_views_document_id_process_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."process_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_page_views" ADD CONSTRAINT "signer_page_views_process_id_processes_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."processes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_page_views" ADD CONSTRAINT "signer_page_views_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "signer_page_views_signer_page_key" ON "signer_page_views" USING btree ("signer_id","document_id","page_index");