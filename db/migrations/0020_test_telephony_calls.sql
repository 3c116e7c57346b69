CREATE TABLE "test_telephony_calls" (
	"sid" text PRIMARY KEY NOT NULL,
	"parent_sid" text,
	"from" text NOT NULL,
	"to" text NOT NULL,
	"status" text NOT NULL,
	"transcript" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"waiting" jsonb,
	"end_status" text,
	"version" integer DEFAULT 0 NOT NULL,
	"connected_at" timestamp (3) with time zone,
	"ended_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "test_telephony_calls_from_idx" ON "test_telephony_calls" USING btree ("from","created_at");--> statement-breakpoint
CREATE INDEX "test_telephony_calls_to_idx" ON "test_telephony_calls" USING btree ("to","created_at");--> statement-breakpoint
CREATE INDEX "test_telephony_calls_parent_idx" ON "test_telephony_calls" USING btree ("parent_sid");