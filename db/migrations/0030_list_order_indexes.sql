-- Indexes that match each list's order, id last (docs/decisions/0046-cursor-pagination.md): a keyset page
-- (cursor) and an OFFSET page both read the index in the list's order. IF NOT EXISTS: on a large database,
-- build the new ones first with CREATE INDEX CONCURRENTLY under these names (docs/operations.md).
DROP INDEX IF EXISTS "users_created_at_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "scans_tag_scanned_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "tags_owner_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "notifications_user_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "emergency_accesses_user_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "threads_owner_last_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "rewards_owner_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "orders_user_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "orders_status_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "orders_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "payment_events_status_received_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "audit_log_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "audit_log_actor_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_created_id_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "scans_tag_scanned_id_idx" ON "scans" USING btree ("tag_id","scanned_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tags_owner_created_id_idx" ON "tags" USING btree ("owner_id","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "notifications_user_created_id_idx" ON "notifications" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "emergency_accesses_user_accessed_id_idx" ON "emergency_accesses" USING btree ("user_id","accessed_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "threads_owner_last_id_idx" ON "threads" USING btree ("owner_id","last_message_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "rewards_owner_created_id_idx" ON "rewards" USING btree ("owner_id","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_user_created_id_idx" ON "orders" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_status_created_id_idx" ON "orders" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_created_id_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payment_events_status_received_id_idx" ON "payment_events" USING btree ("status","received_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payment_events_received_id_idx" ON "payment_events" USING btree ("received_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_log_created_id_idx" ON "audit_log" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_log_actor_created_id_idx" ON "audit_log" USING btree ("actor_id","created_at","id");