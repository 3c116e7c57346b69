ALTER TABLE "tags" ADD COLUMN "last_seen_place" text;--> statement-breakpoint
ALTER TABLE "tags" ADD COLUMN "last_seen_when" text;