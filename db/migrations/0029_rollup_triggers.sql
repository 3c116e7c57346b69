-- Admin stats and analytics from rollups (docs/decisions/0049-admin-rollups.md). Triggers keep
-- rollup_counters, rollup_days and rollup_hours in the same transaction as the rows they count, on every
-- write path (API, pages, jobs, seeds, tests). Inserts and deletes are counted per statement from its
-- transition table, so a bulk insert costs one upsert per rollup row it touches, not one per row; an update
-- is counted per row, and only when a counted column changed (the WHEN clause), so the frequent updates
-- (last login, a message read, a scan's shared place) cost nothing here. Event metrics (scans, sign-ups,
-- orders placed and paid, messages) have no DELETE trigger: removing old raw rows leaves them as they were.
CREATE TYPE rollup_entry AS (kind text, at timestamptz, metric text, dim text, n bigint, amount bigint);--> statement-breakpoint

-- Adds grouped entries (one per kind, at, metric, dim) to the rollups, in this transaction's shard
-- (transaction id modulo 8: concurrent writers spread over 8 rows, while one transaction always writes
-- the same rows), in key order so concurrent transactions lock rows in the same order.
CREATE FUNCTION rollup_apply(entries rollup_entry[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  s smallint;
BEGIN
  IF coalesce(cardinality(entries), 0) = 0 THEN
    RETURN;
  END IF;
  s := (txid_current() % 8)::smallint;
  INSERT INTO rollup_counters AS c (metric, dim, shard, n, amount)
    SELECT e.metric, e.dim, s, e.n, e.amount FROM unnest(entries) e
    WHERE e.kind = 'total' AND (e.n <> 0 OR e.amount <> 0) ORDER BY e.metric, e.dim
    ON CONFLICT (metric, dim, shard) DO UPDATE SET n = c.n + excluded.n, amount = c.amount + excluded.amount;
  INSERT INTO rollup_days AS d (day, metric, dim, shard, n, amount)
    SELECT (e.at AT TIME ZONE 'UTC')::date, e.metric, e.dim, s, e.n, e.amount FROM unnest(entries) e
    WHERE e.kind = 'day' AND (e.n <> 0 OR e.amount <> 0) ORDER BY 1, 2, 3
    ON CONFLICT (day, metric, dim, shard) DO UPDATE SET n = d.n + excluded.n, amount = d.amount + excluded.amount;
  INSERT INTO rollup_hours AS h (hour, metric, shard, n)
    SELECT e.at, e.metric, s, e.n FROM unnest(entries) e
    WHERE e.kind = 'hour' AND e.n <> 0 ORDER BY 1, 2
    ON CONFLICT (hour, metric, shard) DO UPDATE SET n = h.n + excluded.n;
END;
$$;--> statement-breakpoint

-- What one row counts for, times sign (1 when it appears, -1 when it goes). kind 'total': a counter;
-- 'day' / 'hour': an event in the UTC day or hour starting at `at`. with_events false: a DELETE, which
-- lowers the state counters only.
CREATE FUNCTION rollup_user_entries(r users, sign int, with_events boolean) RETURNS SETOF rollup_entry LANGUAGE sql STABLE AS $$
  SELECT 'total'::text, NULL::timestamptz, v.metric, v.dim, sign::bigint, 0::bigint
  FROM (VALUES
    ('users.total', '', true),
    ('users.verified', '', r.email_verified),
    ('users.suspended', '', r.suspended_at IS NOT NULL),
    ('users.two_factor', '', r.two_factor_enabled),
    ('users.admins', '', r.role IN ('ADMIN', 'SUPER_ADMIN')),
    ('users.tier', r.subscription::text, true)
  ) v(metric, dim, hit) WHERE v.hit
  UNION ALL
  SELECT 'day', date_trunc('day', r.created_at, 'UTC'), 'signups', '', sign, 0 WHERE with_events
$$;--> statement-breakpoint

CREATE FUNCTION rollup_tag_entries(r tags, sign int, with_events boolean) RETURNS SETOF rollup_entry LANGUAGE sql STABLE AS $$
  SELECT 'total'::text, NULL::timestamptz, v.metric, v.dim, sign::bigint, 0::bigint
  FROM (VALUES
    ('tags.status', r.status::text, true),
    ('tags.owned', '', r.owner_id IS NOT NULL)
  ) v(metric, dim, hit) WHERE v.hit
$$;--> statement-breakpoint

CREATE FUNCTION rollup_scan_entries(r scans, sign int, with_events boolean) RETURNS SETOF rollup_entry LANGUAGE sql STABLE AS $$
  SELECT 'total'::text, NULL::timestamptz, 'scans.total'::text, ''::text, sign::bigint, 0::bigint
  UNION ALL SELECT 'total', NULL, 'scans.suspicious', '', sign, 0 WHERE r.suspicious
  UNION ALL SELECT 'day', date_trunc('day', r.scanned_at, 'UTC'), 'scans', r.scan_class::text, sign, 0
  UNION ALL SELECT 'day', date_trunc('day', r.scanned_at, 'UTC'), 'scans.suspicious', '', sign, 0 WHERE r.suspicious
  UNION ALL SELECT 'hour', date_trunc('hour', r.scanned_at, 'UTC'), 'scans', '', sign, 0
$$;--> statement-breakpoint

CREATE FUNCTION rollup_order_entries(r orders, sign int, with_events boolean) RETURNS SETOF rollup_entry LANGUAGE sql STABLE AS $$
  SELECT 'total'::text, NULL::timestamptz, v.metric, v.dim, sign::bigint, v.amount * sign
  FROM (VALUES
    ('orders.total', '', true, 0::bigint),
    ('orders.pending', '', r.status = 'PENDING', 0),
    ('orders.to_ship', '', r.status IN ('CONFIRMED', 'PROCESSING'), 0),
    ('orders.paid', r.currency, r.paid_at IS NOT NULL, r.total_minor)
  ) v(metric, dim, hit, amount) WHERE v.hit
  UNION ALL
  SELECT 'day', date_trunc('day', r.created_at, 'UTC'), 'orders', '', sign, 0 WHERE with_events
  UNION ALL
  SELECT 'day', date_trunc('day', r.paid_at, 'UTC'), 'orders.paid', r.currency, sign, r.total_minor * sign WHERE with_events AND r.paid_at IS NOT NULL
$$;--> statement-breakpoint

CREATE FUNCTION rollup_subscription_entries(r subscriptions, sign int, with_events boolean) RETURNS SETOF rollup_entry LANGUAGE sql STABLE AS $$
  SELECT 'total'::text, NULL::timestamptz, 'subscriptions.active'::text, ''::text, sign::bigint, 0::bigint WHERE r.status IN ('ACTIVE', 'PAST_DUE')
$$;--> statement-breakpoint

CREATE FUNCTION rollup_thread_entries(r threads, sign int, with_events boolean) RETURNS SETOF rollup_entry LANGUAGE sql STABLE AS $$
  SELECT 'total'::text, NULL::timestamptz, v.metric, ''::text, sign::bigint, 0::bigint
  FROM (VALUES ('threads.total', true), ('threads.active', r.status = 'ACTIVE')) v(metric, hit) WHERE v.hit
$$;--> statement-breakpoint

CREATE FUNCTION rollup_thread_message_entries(r thread_messages, sign int, with_events boolean) RETURNS SETOF rollup_entry LANGUAGE sql STABLE AS $$
  SELECT 'total'::text, NULL::timestamptz, 'messages.total'::text, ''::text, sign::bigint, 0::bigint
  UNION ALL SELECT 'day', date_trunc('day', r.created_at, 'UTC'), 'messages', '', sign, 0
$$;--> statement-breakpoint

CREATE FUNCTION rollup_report_entries(r reports, sign int, with_events boolean) RETURNS SETOF rollup_entry LANGUAGE sql STABLE AS $$
  SELECT 'total'::text, NULL::timestamptz, v.metric, ''::text, sign::bigint, 0::bigint
  FROM (VALUES ('reports.total', true), ('reports.open', r.status IN ('OPEN', 'REVIEWING'))) v(metric, hit) WHERE v.hit
$$;--> statement-breakpoint

CREATE FUNCTION rollup_newsletter_entries(r newsletter_subscribers, sign int, with_events boolean) RETURNS SETOF rollup_entry LANGUAGE sql STABLE AS $$
  SELECT 'total'::text, NULL::timestamptz, 'newsletter.status'::text, r.status::text, sign::bigint, 0::bigint
$$;--> statement-breakpoint
-- One trigger function per table: a row-level UPDATE (OLD out, NEW in), a statement's inserted rows
-- (new_rows) or deleted rows (old_rows), grouped before they reach the rollups.
CREATE FUNCTION rollup_count_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM (SELECT * FROM rollup_user_entries(NEW, 1, true) UNION ALL SELECT * FROM rollup_user_entries(OLD, -1, true)) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM new_rows r, rollup_user_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  ELSE
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM old_rows r, rollup_user_entries(r, -1, false) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER users_rollup_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_count_users();--> statement-breakpoint
CREATE TRIGGER users_rollup_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_count_users();--> statement-breakpoint
CREATE TRIGGER users_rollup_update AFTER UPDATE ON users FOR EACH ROW
  WHEN ((OLD.created_at, OLD.email_verified, OLD.suspended_at IS NULL, OLD.two_factor_enabled, OLD.role, OLD.subscription) IS DISTINCT FROM (NEW.created_at, NEW.email_verified, NEW.suspended_at IS NULL, NEW.two_factor_enabled, NEW.role, NEW.subscription))
  EXECUTE FUNCTION rollup_count_users();--> statement-breakpoint
CREATE FUNCTION rollup_count_tags() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM (SELECT * FROM rollup_tag_entries(NEW, 1, true) UNION ALL SELECT * FROM rollup_tag_entries(OLD, -1, true)) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM new_rows r, rollup_tag_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  ELSE
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM old_rows r, rollup_tag_entries(r, -1, false) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER tags_rollup_insert AFTER INSERT ON tags REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_count_tags();--> statement-breakpoint
CREATE TRIGGER tags_rollup_delete AFTER DELETE ON tags REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_count_tags();--> statement-breakpoint
CREATE TRIGGER tags_rollup_update AFTER UPDATE ON tags FOR EACH ROW
  WHEN ((OLD.status, OLD.owner_id IS NULL) IS DISTINCT FROM (NEW.status, NEW.owner_id IS NULL))
  EXECUTE FUNCTION rollup_count_tags();--> statement-breakpoint
CREATE FUNCTION rollup_count_scans() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM (SELECT * FROM rollup_scan_entries(NEW, 1, true) UNION ALL SELECT * FROM rollup_scan_entries(OLD, -1, true)) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM new_rows r, rollup_scan_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER scans_rollup_insert AFTER INSERT ON scans REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_count_scans();--> statement-breakpoint
CREATE TRIGGER scans_rollup_update AFTER UPDATE ON scans FOR EACH ROW
  WHEN ((OLD.scanned_at, OLD.scan_class, OLD.suspicious) IS DISTINCT FROM (NEW.scanned_at, NEW.scan_class, NEW.suspicious))
  EXECUTE FUNCTION rollup_count_scans();--> statement-breakpoint
CREATE FUNCTION rollup_count_orders() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM (SELECT * FROM rollup_order_entries(NEW, 1, true) UNION ALL SELECT * FROM rollup_order_entries(OLD, -1, true)) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM new_rows r, rollup_order_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  ELSE
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM old_rows r, rollup_order_entries(r, -1, false) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER orders_rollup_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_count_orders();--> statement-breakpoint
CREATE TRIGGER orders_rollup_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_count_orders();--> statement-breakpoint
CREATE TRIGGER orders_rollup_update AFTER UPDATE ON orders FOR EACH ROW
  WHEN ((OLD.status, OLD.paid_at, OLD.created_at, OLD.total_minor, OLD.currency) IS DISTINCT FROM (NEW.status, NEW.paid_at, NEW.created_at, NEW.total_minor, NEW.currency))
  EXECUTE FUNCTION rollup_count_orders();--> statement-breakpoint
CREATE FUNCTION rollup_count_subscriptions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM (SELECT * FROM rollup_subscription_entries(NEW, 1, true) UNION ALL SELECT * FROM rollup_subscription_entries(OLD, -1, true)) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM new_rows r, rollup_subscription_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  ELSE
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM old_rows r, rollup_subscription_entries(r, -1, false) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER subscriptions_rollup_insert AFTER INSERT ON subscriptions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_count_subscriptions();--> statement-breakpoint
CREATE TRIGGER subscriptions_rollup_delete AFTER DELETE ON subscriptions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_count_subscriptions();--> statement-breakpoint
CREATE TRIGGER subscriptions_rollup_update AFTER UPDATE ON subscriptions FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION rollup_count_subscriptions();--> statement-breakpoint
CREATE FUNCTION rollup_count_threads() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM (SELECT * FROM rollup_thread_entries(NEW, 1, true) UNION ALL SELECT * FROM rollup_thread_entries(OLD, -1, true)) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM new_rows r, rollup_thread_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  ELSE
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM old_rows r, rollup_thread_entries(r, -1, false) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER threads_rollup_insert AFTER INSERT ON threads REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_count_threads();--> statement-breakpoint
CREATE TRIGGER threads_rollup_delete AFTER DELETE ON threads REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_count_threads();--> statement-breakpoint
CREATE TRIGGER threads_rollup_update AFTER UPDATE ON threads FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION rollup_count_threads();--> statement-breakpoint
CREATE FUNCTION rollup_count_thread_messages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM (SELECT * FROM rollup_thread_message_entries(NEW, 1, true) UNION ALL SELECT * FROM rollup_thread_message_entries(OLD, -1, true)) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM new_rows r, rollup_thread_message_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER thread_messages_rollup_insert AFTER INSERT ON thread_messages REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_count_thread_messages();--> statement-breakpoint
CREATE TRIGGER thread_messages_rollup_update AFTER UPDATE ON thread_messages FOR EACH ROW
  WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION rollup_count_thread_messages();--> statement-breakpoint
CREATE FUNCTION rollup_count_reports() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM (SELECT * FROM rollup_report_entries(NEW, 1, true) UNION ALL SELECT * FROM rollup_report_entries(OLD, -1, true)) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM new_rows r, rollup_report_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  ELSE
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM old_rows r, rollup_report_entries(r, -1, false) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER reports_rollup_insert AFTER INSERT ON reports REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_count_reports();--> statement-breakpoint
CREATE TRIGGER reports_rollup_delete AFTER DELETE ON reports REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_count_reports();--> statement-breakpoint
CREATE TRIGGER reports_rollup_update AFTER UPDATE ON reports FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION rollup_count_reports();--> statement-breakpoint
CREATE FUNCTION rollup_count_newsletter_subscribers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM (SELECT * FROM rollup_newsletter_entries(NEW, 1, true) UNION ALL SELECT * FROM rollup_newsletter_entries(OLD, -1, true)) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM new_rows r, rollup_newsletter_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  ELSE
    PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM old_rows r, rollup_newsletter_entries(r, -1, false) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER newsletter_subscribers_rollup_insert AFTER INSERT ON newsletter_subscribers REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_count_newsletter_subscribers();--> statement-breakpoint
CREATE TRIGGER newsletter_subscribers_rollup_delete AFTER DELETE ON newsletter_subscribers REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_count_newsletter_subscribers();--> statement-breakpoint
CREATE TRIGGER newsletter_subscribers_rollup_update AFTER UPDATE ON newsletter_subscribers FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION rollup_count_newsletter_subscribers();--> statement-breakpoint
-- Rebuilds every rollup from the raw rows: the backfill below, and a repair. Right only while the raw rows
-- are complete: once old scans or messages were deleted, it would forget them (docs/decisions/0049-admin-rollups.md).
-- Writes to the counted tables wait until the transaction that ran it ends.
CREATE FUNCTION rollup_backfill() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE users, tags, scans, orders, subscriptions, threads, thread_messages, reports, newsletter_subscribers IN SHARE MODE;
  DELETE FROM rollup_counters;
  DELETE FROM rollup_days;
  DELETE FROM rollup_hours;
  PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM users r, rollup_user_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM tags r, rollup_tag_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM scans r, rollup_scan_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM orders r, rollup_order_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM subscriptions r, rollup_subscription_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM threads r, rollup_thread_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM thread_messages r, rollup_thread_message_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM reports r, rollup_report_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
  PERFORM rollup_apply(ARRAY(
      SELECT ROW(e.kind, e.at, e.metric, e.dim, sum(e.n), sum(e.amount))::rollup_entry
      FROM newsletter_subscribers r, rollup_newsletter_entries(r, 1, true) e
      GROUP BY e.kind, e.at, e.metric, e.dim));
END;
$$;--> statement-breakpoint
SELECT rollup_backfill();
