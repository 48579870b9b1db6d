DROP INDEX "stamp_transactions_tx_token_key";--> statement-breakpoint
ALTER TABLE "certificate_holders" ADD COLUMN "enrolled_by" text;--> statement-breakpoint
ALTER TABLE "certificate_holders" ADD COLUMN "enrolled_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "certificate_holders" ADD CONSTRAINT "certificate_holders_enrolled_by_user_id_users_id_fk" FOREIGN KEY ("enrolled_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stamp_transactions_org_tx_token_key" ON "stamp_transactions" USING btree ("organization_id","tx_token");--> statement-breakpoint
CREATE INDEX "stamp_transactions_tx_token_idx" ON "stamp_transactions" USING btree ("tx_token","created_at");