CREATE TYPE "public"."profile_visibility" AS ENUM('PUBLIC', 'PRIVATE');--> statement-breakpoint
CREATE TYPE "public"."tag_status" AS ENUM('PENDING_SETUP', 'ACTIVE', 'LOST', 'FOUND', 'STOLEN', 'DEACTIVATED', 'EXPIRED');--> statement-breakpoint
CREATE TYPE "public"."tag_type" AS ENUM('GENERAL', 'PET', 'VEHICLE', 'DEVICE', 'TRAVEL');--> statement-breakpoint
CREATE TYPE "public"."transfer_status" AS ENUM('PENDING', 'ACCEPTED', 'DECLINED', 'CANCELLED', 'EXPIRED');--> statement-breakpoint
CREATE TABLE "device_profiles" (
	"tag_id" uuid PRIMARY KEY NOT NULL,
	"device_type" text NOT NULL,
	"brand" text,
	"model" text,
	"serial_number" text,
	"color" text
);
--> statement-breakpoint
CREATE TABLE "pet_profiles" (
	"tag_id" uuid PRIMARY KEY NOT NULL,
	"pet_name" text NOT NULL,
	"species" text NOT NULL,
	"breed" text,
	"color" text,
	"microchip" text,
	"vet_info" text
);
--> statement-breakpoint
CREATE TABLE "scans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tag_id" uuid NOT NULL,
	"scanned_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"ip_hash" text,
	"city" text,
	"country" text,
	"latitude" double precision,
	"longitude" double precision,
	"accuracy" double precision,
	"location_shared" boolean DEFAULT false NOT NULL,
	"suspicious" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tag_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tag_id" uuid NOT NULL,
	"from_status" "tag_status",
	"to_status" "tag_status" NOT NULL,
	"actor_user_id" uuid,
	"actor_kind" text NOT NULL,
	"reason" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tag_insurance" (
	"tag_id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"policy_number" text NOT NULL,
	"coverage_amount" integer,
	"currency" text,
	"valid_until" date,
	"contact_phone" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tag_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tag_id" uuid NOT NULL,
	"content_type" text NOT NULL,
	"data" "bytea" NOT NULL,
	"byte_size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tag_profiles" (
	"tag_id" uuid PRIMARY KEY NOT NULL,
	"description" text,
	"owner_name" text,
	"contact_email" text,
	"contact_phone" text,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tag_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tag_id" uuid NOT NULL,
	"from_user_id" uuid NOT NULL,
	"to_email" text NOT NULL,
	"status" "transfer_status" DEFAULT 'PENDING' NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"responded_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"encrypted_id" text NOT NULL,
	"owner_id" uuid,
	"status" "tag_status" DEFAULT 'PENDING_SETUP' NOT NULL,
	"tag_type" "tag_type" DEFAULT 'GENERAL' NOT NULL,
	"item_name" text,
	"lost_message" text,
	"visibility" "profile_visibility" DEFAULT 'PUBLIC' NOT NULL,
	"scan_count" integer DEFAULT 0 NOT NULL,
	"last_scanned_at" timestamp (3) with time zone,
	"activated_at" timestamp (3) with time zone,
	"typed_profile_saved_at" timestamp (3) with time zone,
	"police_report_ref" text,
	"stolen_reported_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "travel_profiles" (
	"tag_id" uuid PRIMARY KEY NOT NULL,
	"luggage_type" text NOT NULL,
	"color" text,
	"brand" text,
	"flight_number" text,
	"destination" text
);
--> statement-breakpoint
CREATE TABLE "vehicle_profiles" (
	"tag_id" uuid PRIMARY KEY NOT NULL,
	"make" text NOT NULL,
	"model" text NOT NULL,
	"year" integer,
	"color" text,
	"license_plate" text,
	"vin" text
);
--> statement-breakpoint
ALTER TABLE "device_profiles" ADD CONSTRAINT "device_profiles_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pet_profiles" ADD CONSTRAINT "pet_profiles_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_events" ADD CONSTRAINT "tag_events_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_events" ADD CONSTRAINT "tag_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_insurance" ADD CONSTRAINT "tag_insurance_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_photos" ADD CONSTRAINT "tag_photos_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_profiles" ADD CONSTRAINT "tag_profiles_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_transfers" ADD CONSTRAINT "tag_transfers_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_transfers" ADD CONSTRAINT "tag_transfers_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "travel_profiles" ADD CONSTRAINT "travel_profiles_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_profiles" ADD CONSTRAINT "vehicle_profiles_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scans_tag_scanned_idx" ON "scans" USING btree ("tag_id","scanned_at");--> statement-breakpoint
CREATE INDEX "tag_events_tag_idx" ON "tag_events" USING btree ("tag_id","created_at");--> statement-breakpoint
CREATE INDEX "tag_photos_tag_idx" ON "tag_photos" USING btree ("tag_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tag_photos_one_primary_key" ON "tag_photos" USING btree ("tag_id") WHERE "tag_photos"."is_primary";--> statement-breakpoint
CREATE UNIQUE INDEX "tag_transfers_one_pending_key" ON "tag_transfers" USING btree ("tag_id") WHERE "tag_transfers"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "tag_transfers_to_email_idx" ON "tag_transfers" USING btree ("to_email","status");--> statement-breakpoint
CREATE INDEX "tag_transfers_from_user_idx" ON "tag_transfers" USING btree ("from_user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_code_key" ON "tags" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_encrypted_id_key" ON "tags" USING btree ("encrypted_id");--> statement-breakpoint
CREATE INDEX "tags_owner_created_idx" ON "tags" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "tags_owner_status_idx" ON "tags" USING btree ("owner_id","status");--> statement-breakpoint
CREATE INDEX "vehicle_profiles_vin_idx" ON "vehicle_profiles" USING btree ("vin");