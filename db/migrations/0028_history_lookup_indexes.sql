CREATE INDEX "pki_certificates_private_key_label_idx" ON "pki_certificates" USING btree ("private_key_label") WHERE "pki_certificates"."private_key_label" is not null;--> statement-breakpoint
CREATE INDEX "process_signers_org_doc_idx" ON "process_signers" USING btree ("organization_id","doc_id");--> statement-breakpoint
CREATE INDEX "audit_log_organization_target_idx" ON "audit_log" USING btree ("organization_id","target");--> statement-breakpoint
CREATE INDEX "signer_page_views_process_idx" ON "signer_page_views" USING btree ("process_id");--> statement-breakpoint
CREATE INDEX "identity_reviews_signer_created_idx" ON "identity_reviews" USING btree ("signer_id","created_at");