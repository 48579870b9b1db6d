ALTER TABLE "stamp_transactions" ADD COLUMN "pades_level" text;--> statement-breakpoint
ALTER TABLE "processes" ADD COLUMN "pades_level" text;