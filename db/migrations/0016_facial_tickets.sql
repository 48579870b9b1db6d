CREATE TABLE "facial_tickets" (
	"nonce" text PRIMARY KEY NOT NULL,
	"signer_id" uuid NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone,
	"outcome" text
);
--> statement-breakpoint
ALTER TABLE "facial_tickets" ADD CONSTRAINT "facial_tickets_signer_id_process_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."process_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "facial_tickets_signer_issued_idx" ON "facial_tickets" USING btree ("signer_id","issued_at");