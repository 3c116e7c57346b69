-- Lost-pet alerts search by distance with earthdistance (on cube): both ship with PostgreSQL's contrib
-- and with the embedded PGlite (docs/decisions/0045-alerts-geography.md).
CREATE EXTENSION IF NOT EXISTS cube;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS earthdistance;
