CREATE TYPE "public"."message_channel" AS ENUM('web', 'sms', 'call');--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'CALL_RECEIVED' BEFORE 'TAG_STATUS_CHANGED';--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'CALL_MISSED' BEFORE 'TAG_STATUS_CHANGED';--> statement-breakpoint
CREATE TABLE "relay_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"call_sid" text NOT NULL,
	"tag_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"thread_id" uuid NOT NULL,
	"outcome" text,
	"duration_seconds" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "relay_daily_usage" (
	"day" text PRIMARY KEY NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"alerted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "relay_opt_outs" (
	"phone_hash" text PRIMARY KEY NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "relay_webhook_events" (
	"sid" text NOT NULL,
	"step" text NOT NULL,
	"answer" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "relay_webhook_events_sid_step_pk" PRIMARY KEY("sid","step")
);
--> statement-breakpoint
ALTER TABLE "thread_messages" ADD COLUMN "channel" "message_channel" DEFAULT 'web' NOT NULL;--> statement-breakpoint
ALTER TABLE "thread_messages" ADD COLUMN "call_outcome" text;--> statement-breakpoint
ALTER TABLE "thread_messages" ADD COLUMN "call_seconds" integer;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "finder_phone_hash" text;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "finder_phone_last_digits" text;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "finder_phone_sealed" text;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "finder_phone_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "relay_code" text;--> statement-breakpoint
ALTER TABLE "relay_calls" ADD CONSTRAINT "relay_calls_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relay_calls" ADD CONSTRAINT "relay_calls_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relay_calls" ADD CONSTRAINT "relay_calls_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "relay_calls_call_sid_key" ON "relay_calls" USING btree ("call_sid");--> statement-breakpoint
CREATE INDEX "relay_webhook_events_created_idx" ON "relay_webhook_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "threads_finder_phone_idx" ON "threads" USING btree ("owner_id","finder_phone_hash") WHERE "threads"."finder_phone_hash" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "threads_owner_relay_code_key" ON "threads" USING btree ("owner_id","relay_code") WHERE "threads"."relay_code" is not null;