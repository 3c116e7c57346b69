ALTER TABLE "test_provider_sessions" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "test_provider_sessions" ADD COLUMN "refund_id" text;--> statement-breakpoint
ALTER TABLE "test_provider_sessions" ADD COLUMN "refunded_minor" integer;--> statement-breakpoint
ALTER TABLE "test_provider_sessions" ADD COLUMN "refunded_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "test_provider_sessions_idempotency_key" ON "test_provider_sessions" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "test_provider_sessions_payment_intent_idx" ON "test_provider_sessions" USING btree ("payment_intent_id");--> statement-breakpoint
CREATE INDEX "test_provider_sessions_subscription_idx" ON "test_provider_sessions" USING btree ("subscription_id");