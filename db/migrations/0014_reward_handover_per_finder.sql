CREATE TYPE "public"."reward_return_confirmation" AS ENUM('HANDOVER_CODE', 'OWNER_CHOSE_FINDER', 'OWNER');--> statement-breakpoint
CREATE TABLE "reward_handovers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reward_id" uuid NOT NULL,
	"thread_id" uuid NOT NULL,
	"code_sealed" text NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rewards" ADD COLUMN "return_confirmation" "reward_return_confirmation";--> statement-breakpoint
ALTER TABLE "rewards" ADD COLUMN "finder_thread_id" uuid;--> statement-breakpoint
ALTER TABLE "reward_handovers" ADD CONSTRAINT "reward_handovers_reward_id_rewards_id_fk" FOREIGN KEY ("reward_id") REFERENCES "public"."rewards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_handovers" ADD CONSTRAINT "reward_handovers_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reward_handovers_reward_thread_key" ON "reward_handovers" USING btree ("reward_id","thread_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reward_handovers_reward_code_key" ON "reward_handovers" USING btree ("reward_id","code_hash");--> statement-breakpoint
CREATE INDEX "reward_handovers_thread_idx" ON "reward_handovers" USING btree ("thread_id");--> statement-breakpoint
ALTER TABLE "rewards" ADD CONSTRAINT "rewards_finder_thread_id_threads_id_fk" FOREIGN KEY ("finder_thread_id") REFERENCES "public"."threads"("id") ON DELETE set null ON UPDATE no action;