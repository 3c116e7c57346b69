CREATE TABLE "tag_scan_days" (
	"tag_id" uuid NOT NULL,
	"day" date NOT NULL,
	"scan_class" "scan_class" NOT NULL,
	"scans" integer DEFAULT 0 NOT NULL,
	"shared_locations" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "tag_scan_days_tag_id_day_scan_class_pk" PRIMARY KEY("tag_id","day","scan_class"),
	CONSTRAINT "tag_scan_days_counts" CHECK ("tag_scan_days"."scans" >= 0 and "tag_scan_days"."shared_locations" >= 0)
);
--> statement-breakpoint
ALTER TABLE "tag_scan_days" ADD CONSTRAINT "tag_scan_days_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scans_ip_hash_scanned_idx" ON "scans" USING btree ("scanned_at") WHERE "scans"."ip_hash" is not null;--> statement-breakpoint
CREATE INDEX "scans_shared_place_scanned_idx" ON "scans" USING btree ("scanned_at") WHERE "scans"."location_shared" and "scans"."latitude" is not null;--> statement-breakpoint
CREATE INDEX "notifications_read_created_idx" ON "notifications" USING btree ("created_at") WHERE "notifications"."read_at" is not null;--> statement-breakpoint
CREATE INDEX "notifications_place_created_idx" ON "notifications" USING btree ("created_at") WHERE "notifications"."data" ? 'latitude';--> statement-breakpoint
CREATE INDEX "emergency_accesses_ip_hash_idx" ON "emergency_accesses" USING btree ("accessed_at") WHERE "emergency_accesses"."ip_hash" is not null;--> statement-breakpoint
CREATE INDEX "thread_messages_place_created_idx" ON "thread_messages" USING btree ("created_at") WHERE "thread_messages"."latitude" is not null;