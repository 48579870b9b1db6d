ALTER TABLE "certificate_holders" ADD COLUMN "enrolled_by" text;--> statement-breakpoint
ALTER TABLE "certificate_holders" ADD COLUMN "enrolled_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "certificate_holders" ADD CONSTRAINT "certificate_holders_enrolled_by_user_id_users_id_fk" FOREIGN KEY ("enrolled_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;