DROP INDEX "rewards_one_open_per_tag";--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "link_emailed_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "rewards_one_open_per_tag_owner" ON "rewards" USING btree ("tag_id","owner_id") WHERE "rewards"."status" in ('ACTIVE', 'RETURNED');