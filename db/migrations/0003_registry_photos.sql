CREATE TABLE "registry_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"nat" text NOT NULL,
	"doc_id" text NOT NULL,
	"blob_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "registry_photos" ADD CONSTRAINT "registry_photos_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "registry_photos_org_nat_doc_key" ON "registry_photos" USING btree ("organization_id","nat","doc_id");--> statement-breakpoint
CREATE INDEX "registry_photos_organization_idx" ON "registry_photos" USING btree ("organization_id");