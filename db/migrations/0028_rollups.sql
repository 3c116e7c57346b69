CREATE TABLE "rollup_counters" (
	"metric" text NOT NULL,
	"dim" text DEFAULT '' NOT NULL,
	"shard" smallint NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "rollup_counters_metric_dim_shard_pk" PRIMARY KEY("metric","dim","shard")
);
--> statement-breakpoint
CREATE TABLE "rollup_days" (
	"day" date NOT NULL,
	"metric" text NOT NULL,
	"dim" text DEFAULT '' NOT NULL,
	"shard" smallint NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "rollup_days_day_metric_dim_shard_pk" PRIMARY KEY("day","metric","dim","shard")
);
--> statement-breakpoint
CREATE TABLE "rollup_hours" (
	"hour" timestamp (3) with time zone NOT NULL,
	"metric" text NOT NULL,
	"shard" smallint NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "rollup_hours_hour_metric_shard_pk" PRIMARY KEY("hour","metric","shard")
);
