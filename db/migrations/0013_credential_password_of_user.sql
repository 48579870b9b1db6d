ALTER TABLE "api_credentials" ADD COLUMN "password_of_user_id" uuid;--> statement-breakpoint
ALTER TABLE "api_credentials" ADD CONSTRAINT "api_credentials_password_of_user_id_users_id_fk" FOREIGN KEY ("password_of_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- hand-written backfill: a credential named after a staff member of its organization may hold that person's password (the first start's admin credential did)
UPDATE "api_credentials" SET "password_of_user_id" = "users"."id" FROM "users" WHERE "users"."organization_id" = "api_credentials"."organization_id" AND "users"."email" = "api_credentials"."clientname";
