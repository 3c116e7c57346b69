-- The admin user search matches any part of an e-mail address or name (ILIKE '%…%'), which no B-tree can
-- serve: pg_trgm's GIN operator class can. pg_trgm ships with PostgreSQL's contrib and with the embedded
-- PGlite, and is a trusted extension (PostgreSQL 13+), so the database owner creates it without an
-- administrator (docs/decisions/0047-trigram-search-and-statement-timeout.md).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
