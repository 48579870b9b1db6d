CREATE INDEX "stamp_transactions_org_completed_idx" ON "stamp_transactions" USING btree ("organization_id","completed_at");--> statement-breakpoint
CREATE INDEX "outbox_org_dead_idx" ON "outbox" USING btree ("organization_id","kind") WHERE "outbox"."status" = 'dead';--> statement-breakpoint
CREATE INDEX "outbox_callback_process_idx" ON "outbox" USING btree (("payload"->>'processId'),"id") WHERE "outbox"."kind" = 'callback.deliver';--> statement-breakpoint
CREATE INDEX "process_events_org_idx" ON "process_events" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "process_signers_org_signed_idx" ON "process_signers" USING btree ("organization_id","signed_at");--> statement-breakpoint
CREATE INDEX "process_signers_org_locked_idx" ON "process_signers" USING btree ("organization_id") WHERE "process_signers"."locked_at" is not null;--> statement-breakpoint
CREATE INDEX "processes_org_status_expire_idx" ON "processes" USING btree ("organization_id","status","expire_at");--> statement-breakpoint
CREATE INDEX "processes_org_completed_idx" ON "processes" USING btree ("organization_id","completed_at");