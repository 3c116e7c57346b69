CREATE TABLE "owner_phones" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"phone_sealed" text NOT NULL,
	"phone_hash" text NOT NULL,
	"last_digits" text NOT NULL,
	"verified_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "phone_verifications" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"phone_sealed" text NOT NULL,
	"phone_hash" text NOT NULL,
	"last_digits" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"consumed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tag_relays" (
	"tag_id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"pin" text,
	"quiet_from" text,
	"quiet_to" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_telephony_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sid" text NOT NULL,
	"kind" text NOT NULL,
	"from" text NOT NULL,
	"to" text NOT NULL,
	"body" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "owner_phones" ADD CONSTRAINT "owner_phones_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_verifications" ADD CONSTRAINT "phone_verifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_relays" ADD CONSTRAINT "tag_relays_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_relays" ADD CONSTRAINT "tag_relays_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "owner_phones_phone_hash_key" ON "owner_phones" USING btree ("phone_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "tag_relays_active_pin_key" ON "tag_relays" USING btree ("pin") WHERE "tag_relays"."enabled";--> statement-breakpoint
CREATE INDEX "tag_relays_owner_idx" ON "tag_relays" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "test_telephony_deliveries_sid_key" ON "test_telephony_deliveries" USING btree ("sid");--> statement-breakpoint
CREATE INDEX "test_telephony_deliveries_to_idx" ON "test_telephony_deliveries" USING btree ("to","created_at");--> statement-breakpoint
CREATE INDEX "test_telephony_deliveries_from_idx" ON "test_telephony_deliveries" USING btree ("from","created_at");