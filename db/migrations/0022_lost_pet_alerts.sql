CREATE TYPE "public"."organisation_kind" AS ENUM('SHELTER', 'VET', 'POLICE');--> statement-breakpoint
CREATE TYPE "public"."pet_species" AS ENUM('DOG', 'CAT', 'BIRD', 'RABBIT', 'OTHER');--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'LOST_PET_NEARBY' BEFORE 'ORDER_UPDATED';--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'FOUND_PET_MATCH' BEFORE 'ORDER_UPDATED';--> statement-breakpoint
ALTER TYPE "public"."report_action" ADD VALUE 'REMOVE_ALERT';--> statement-breakpoint
ALTER TYPE "public"."report_action" ADD VALUE 'REMOVE_FOUND_REPORT';--> statement-breakpoint
CREATE TABLE "alert_areas" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"radius_km" double precision NOT NULL,
	"species" "pet_species",
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_areas_radius_check" CHECK ("alert_areas"."radius_km" between 1 and 50)
);
--> statement-breakpoint
CREATE TABLE "found_report_matches" (
	"report_id" uuid NOT NULL,
	"alert_id" uuid NOT NULL,
	"distance_m" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "found_report_matches_report_id_alert_id_pk" PRIMARY KEY("report_id","alert_id")
);
--> statement-breakpoint
CREATE TABLE "found_report_photos" (
	"report_id" uuid PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"data" "bytea" NOT NULL,
	"byte_size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "found_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"species" "pet_species" NOT NULL,
	"breed" text,
	"color" text,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"found_at" timestamp (3) with time zone NOT NULL,
	"note" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp (3) with time zone,
	"removed_by_id" uuid
);
--> statement-breakpoint
CREATE TABLE "lost_pet_alert_recipients" (
	"alert_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"distance_m" integer NOT NULL,
	"notification_id" uuid,
	"notified_at" timestamp (3) with time zone,
	CONSTRAINT "lost_pet_alert_recipients_alert_id_user_id_pk" PRIMARY KEY("alert_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "lost_pet_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tag_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"species" "pet_species" NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"last_seen_at" timestamp (3) with time zone NOT NULL,
	"radius_km" double precision NOT NULL,
	"note" text,
	"recipient_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp (3) with time zone,
	"closed_reason" text,
	"removed_at" timestamp (3) with time zone,
	"removed_by_id" uuid,
	CONSTRAINT "lost_pet_alerts_radius_check" CHECK ("lost_pet_alerts"."radius_km" between 1 and 20)
);
--> statement-breakpoint
CREATE TABLE "organisations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" "organisation_kind" NOT NULL,
	"address" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"phone" text NOT NULL,
	"website" text,
	"watch_radius_km" double precision DEFAULT 25 NOT NULL,
	"verified_at" timestamp (3) with time zone,
	"verified_by_id" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organisations_userId_unique" UNIQUE("user_id"),
	CONSTRAINT "organisations_watch_radius_check" CHECK ("organisations"."watch_radius_km" between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "email_lost_pet_nearby" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "push_lost_pet_nearby" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "alert_id" uuid;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "found_report_id" uuid;--> statement-breakpoint
ALTER TABLE "alert_areas" ADD CONSTRAINT "alert_areas_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "found_report_matches" ADD CONSTRAINT "found_report_matches_report_id_found_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."found_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "found_report_matches" ADD CONSTRAINT "found_report_matches_alert_id_lost_pet_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."lost_pet_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "found_report_photos" ADD CONSTRAINT "found_report_photos_report_id_found_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."found_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "found_reports" ADD CONSTRAINT "found_reports_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "found_reports" ADD CONSTRAINT "found_reports_removed_by_id_users_id_fk" FOREIGN KEY ("removed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lost_pet_alert_recipients" ADD CONSTRAINT "lost_pet_alert_recipients_alert_id_lost_pet_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."lost_pet_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lost_pet_alert_recipients" ADD CONSTRAINT "lost_pet_alert_recipients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lost_pet_alert_recipients" ADD CONSTRAINT "lost_pet_alert_recipients_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lost_pet_alerts" ADD CONSTRAINT "lost_pet_alerts_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lost_pet_alerts" ADD CONSTRAINT "lost_pet_alerts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lost_pet_alerts" ADD CONSTRAINT "lost_pet_alerts_removed_by_id_users_id_fk" FOREIGN KEY ("removed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisations" ADD CONSTRAINT "organisations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisations" ADD CONSTRAINT "organisations_verified_by_id_users_id_fk" FOREIGN KEY ("verified_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_areas_earth_idx" ON "alert_areas" USING gist (ll_to_earth("latitude", "longitude"));--> statement-breakpoint
CREATE INDEX "found_report_matches_alert_idx" ON "found_report_matches" USING btree ("alert_id");--> statement-breakpoint
CREATE INDEX "found_reports_organisation_created_idx" ON "found_reports" USING btree ("organisation_id","created_at");--> statement-breakpoint
CREATE INDEX "found_reports_earth_idx" ON "found_reports" USING gist (ll_to_earth("latitude", "longitude"));--> statement-breakpoint
CREATE INDEX "lost_pet_alert_recipients_user_idx" ON "lost_pet_alert_recipients" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "lost_pet_alerts_tag_created_idx" ON "lost_pet_alerts" USING btree ("tag_id","created_at");--> statement-breakpoint
CREATE INDEX "lost_pet_alerts_owner_created_idx" ON "lost_pet_alerts" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "lost_pet_alerts_open_earth_idx" ON "lost_pet_alerts" USING gist (ll_to_earth("latitude", "longitude")) WHERE "lost_pet_alerts"."closed_at" is null and "lost_pet_alerts"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "lost_pet_alerts_open_created_idx" ON "lost_pet_alerts" USING btree ("created_at") WHERE "lost_pet_alerts"."closed_at" is null and "lost_pet_alerts"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "organisations_created_idx" ON "organisations" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_alert_id_lost_pet_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."lost_pet_alerts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_found_report_id_found_reports_id_fk" FOREIGN KEY ("found_report_id") REFERENCES "public"."found_reports"("id") ON DELETE set null ON UPDATE no action;