ALTER TABLE "thread_messages" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "thread_messages" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "thread_messages" ADD COLUMN "accuracy" double precision;--> statement-breakpoint
ALTER TABLE "thread_messages" ADD CONSTRAINT "thread_messages_location_whole" CHECK (("thread_messages"."latitude" is null) = ("thread_messages"."longitude" is null) and ("thread_messages"."accuracy" is null or "thread_messages"."latitude" is not null));