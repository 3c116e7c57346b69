CREATE TYPE "public"."reward_status" AS ENUM('ACTIVE', 'RETURNED', 'PAID', 'DISPUTED');--> statement-breakpoint
CREATE TABLE "rewards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tag_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"amount_minor" integer NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"description" text,
	"status" "reward_status" DEFAULT 'ACTIVE' NOT NULL,
	"payment_ref" text,
	"paid_at" timestamp (3) with time zone,
	"dispute_reason" text,
	"returned_at" timestamp (3) with time zone,
	"certificate_id" text,
	"handover_code_sealed" text,
	"handover_failures" integer DEFAULT 0 NOT NULL,
	"verified_handover" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rewards" ADD CONSTRAINT "rewards_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rewards" ADD CONSTRAINT "rewards_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rewards_one_open_per_tag" ON "rewards" USING btree ("tag_id") WHERE "rewards"."status" in ('ACTIVE', 'RETURNED');--> statement-breakpoint
CREATE UNIQUE INDEX "rewards_certificate_id_key" ON "rewards" USING btree ("certificate_id");--> statement-breakpoint
CREATE INDEX "rewards_owner_created_idx" ON "rewards" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "rewards_tag_idx" ON "rewards" USING btree ("tag_id");