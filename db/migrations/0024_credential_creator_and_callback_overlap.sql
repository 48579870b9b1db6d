ALTER TABLE "api_credentials" ADD COLUMN "created_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "api_credentials" ADD COLUMN "secret_generation" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "callback_secret_previous_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_credentials" ADD CONSTRAINT "api_credentials_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;