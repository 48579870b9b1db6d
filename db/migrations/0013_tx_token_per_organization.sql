DROP INDEX "stamp_transactions_tx_token_key";--> statement-breakpoint
CREATE UNIQUE INDEX "stamp_transactions_org_tx_token_key" ON "stamp_transactions" USING btree ("organization_id","tx_token");--> statement-breakpoint
CREATE INDEX "stamp_transactions_tx_token_idx" ON "stamp_transactions" USING btree ("tx_token","created_at");