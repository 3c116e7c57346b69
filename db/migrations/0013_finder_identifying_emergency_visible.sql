ALTER TABLE "pet_profiles" ADD COLUMN "size" text;--> statement-breakpoint
ALTER TABLE "pet_profiles" ADD COLUMN "distinctive_marks" text;--> statement-breakpoint
ALTER TABLE "pet_profiles" ADD COLUMN "needs_medication" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "pet_profiles" ADD COLUMN "show_needs_medication" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tag_profiles" ADD COLUMN "emergency_visible" boolean;--> statement-breakpoint
ALTER TABLE "vehicle_profiles" ADD COLUMN "show_plate" boolean DEFAULT false NOT NULL;