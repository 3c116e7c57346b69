ALTER TYPE "public"."report_type" ADD VALUE 'VIN_CONFLICT';--> statement-breakpoint
ALTER TABLE "reports" ALTER COLUMN "reporter_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "vin" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "related_tag_id" uuid;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "related_user_id" uuid;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_related_tag_id_tags_id_fk" FOREIGN KEY ("related_tag_id") REFERENCES "public"."tags"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_related_user_id_users_id_fk" FOREIGN KEY ("related_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_vin_conflict_key" ON "reports" USING btree ("vin","tag_id","related_tag_id") WHERE "reports"."vin" is not null and "reports"."status" in ('OPEN', 'REVIEWING');