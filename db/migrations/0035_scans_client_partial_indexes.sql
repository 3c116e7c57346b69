DROP INDEX "scans_tag_ip_idx";--> statement-breakpoint
CREATE INDEX "scans_tag_ip_real_idx" ON "scans" USING btree ("tag_id","ip_hash","scanned_at") WHERE "scans"."scan_class" = 'REAL' and not "scans"."location_shared";--> statement-breakpoint
CREATE INDEX "scans_tag_ip_shared_idx" ON "scans" USING btree ("tag_id","ip_hash","scanned_at") WHERE "scans"."location_shared";