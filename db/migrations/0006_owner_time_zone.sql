ALTER TABLE "notification_preferences" ALTER COLUMN "time_zone" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "notification_preferences" ALTER COLUMN "time_zone" DROP NOT NULL;--> statement-breakpoint
-- Without quiet hours, 'UTC' is the old column default rather than a choice (the settings saved a zone only with quiet hours): those owners now follow their browser's zone.
UPDATE "notification_preferences" SET "time_zone" = NULL WHERE "time_zone" = 'UTC' AND "quiet_hours_start" IS NULL;
