-- The finder's view cache (docs/database.md, tags.view_version). tags.view_version goes up with every
-- write to a table the public scan view reads besides the tag row itself, in the writing transaction, on
-- every write path (API, pages, jobs, seeds, tests): a process that cached the view's reads under an older
-- version reads them again at the next scan. Per statement, from its transition tables, so a bulk write bumps
-- each tag once; an UPDATE bumps the tags (or owners) of its rows before and after, so moving a row to
-- another tag or owner invalidates both. Tags are locked in id order, as any two bumps then queue the same way.

-- Adds one to the view version of these tags.
CREATE FUNCTION view_version_bump_tags(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(ids), 0) = 0 THEN
    RETURN;
  END IF;
  UPDATE tags t SET view_version = t.view_version + 1
  FROM (SELECT id FROM tags WHERE id = ANY(ids) ORDER BY id FOR UPDATE) locked
  WHERE t.id = locked.id;
END;
$$;--> statement-breakpoint

-- Adds one to the view version of every tag these users own (their phone and emergency profile are in each tag's view).
CREATE FUNCTION view_version_bump_owners(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(ids), 0) = 0 THEN
    RETURN;
  END IF;
  UPDATE tags t SET view_version = t.view_version + 1
  FROM (SELECT id FROM tags WHERE owner_id = ANY(ids) ORDER BY id FOR UPDATE) locked
  WHERE t.id = locked.id;
END;
$$;--> statement-breakpoint

-- Statement triggers of the tables keyed by tag_id.
CREATE FUNCTION view_version_on_tag_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM view_version_bump_tags(ARRAY(SELECT DISTINCT tag_id FROM new_rows WHERE tag_id IS NOT NULL));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM view_version_bump_tags(ARRAY(SELECT DISTINCT tag_id FROM old_rows WHERE tag_id IS NOT NULL));
  ELSE
    PERFORM view_version_bump_tags(ARRAY(SELECT tag_id FROM new_rows WHERE tag_id IS NOT NULL UNION SELECT tag_id FROM old_rows WHERE tag_id IS NOT NULL));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint

-- Statement triggers of the tables keyed by user_id (the owner's, for all of their tags).
CREATE FUNCTION view_version_on_owner_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM view_version_bump_owners(ARRAY(SELECT DISTINCT user_id FROM new_rows WHERE user_id IS NOT NULL));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM view_version_bump_owners(ARRAY(SELECT DISTINCT user_id FROM old_rows WHERE user_id IS NOT NULL));
  ELSE
    PERFORM view_version_bump_owners(ARRAY(SELECT user_id FROM new_rows WHERE user_id IS NOT NULL UNION SELECT user_id FROM old_rows WHERE user_id IS NOT NULL));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint

CREATE TRIGGER rewards_view_version_insert AFTER INSERT ON rewards REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER rewards_view_version_update AFTER UPDATE ON rewards REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER rewards_view_version_delete AFTER DELETE ON rewards REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER tag_profiles_view_version_insert AFTER INSERT ON tag_profiles REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER tag_profiles_view_version_update AFTER UPDATE ON tag_profiles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER tag_profiles_view_version_delete AFTER DELETE ON tag_profiles REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER tag_photos_view_version_insert AFTER INSERT ON tag_photos REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER tag_photos_view_version_update AFTER UPDATE ON tag_photos REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER tag_photos_view_version_delete AFTER DELETE ON tag_photos REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER pet_profiles_view_version_insert AFTER INSERT ON pet_profiles REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER pet_profiles_view_version_update AFTER UPDATE ON pet_profiles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER pet_profiles_view_version_delete AFTER DELETE ON pet_profiles REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER vehicle_profiles_view_version_insert AFTER INSERT ON vehicle_profiles REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER vehicle_profiles_view_version_update AFTER UPDATE ON vehicle_profiles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER vehicle_profiles_view_version_delete AFTER DELETE ON vehicle_profiles REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER device_profiles_view_version_insert AFTER INSERT ON device_profiles REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER device_profiles_view_version_update AFTER UPDATE ON device_profiles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER device_profiles_view_version_delete AFTER DELETE ON device_profiles REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER travel_profiles_view_version_insert AFTER INSERT ON travel_profiles REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER travel_profiles_view_version_update AFTER UPDATE ON travel_profiles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER travel_profiles_view_version_delete AFTER DELETE ON travel_profiles REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER tag_relays_view_version_insert AFTER INSERT ON tag_relays REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER tag_relays_view_version_update AFTER UPDATE ON tag_relays REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER tag_relays_view_version_delete AFTER DELETE ON tag_relays REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_tag_rows();--> statement-breakpoint
CREATE TRIGGER emergency_profiles_view_version_insert AFTER INSERT ON emergency_profiles REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_owner_rows();--> statement-breakpoint
CREATE TRIGGER emergency_profiles_view_version_update AFTER UPDATE ON emergency_profiles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_owner_rows();--> statement-breakpoint
CREATE TRIGGER emergency_profiles_view_version_delete AFTER DELETE ON emergency_profiles REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_owner_rows();--> statement-breakpoint
CREATE TRIGGER emergency_contacts_view_version_insert AFTER INSERT ON emergency_contacts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_owner_rows();--> statement-breakpoint
CREATE TRIGGER emergency_contacts_view_version_update AFTER UPDATE ON emergency_contacts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_owner_rows();--> statement-breakpoint
CREATE TRIGGER emergency_contacts_view_version_delete AFTER DELETE ON emergency_contacts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_owner_rows();--> statement-breakpoint
CREATE TRIGGER owner_phones_view_version_insert AFTER INSERT ON owner_phones REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_owner_rows();--> statement-breakpoint
CREATE TRIGGER owner_phones_view_version_update AFTER UPDATE ON owner_phones REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_owner_rows();--> statement-breakpoint
CREATE TRIGGER owner_phones_view_version_delete AFTER DELETE ON owner_phones REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION view_version_on_owner_rows();--> statement-breakpoint

-- The scan's repeat check (lib/services/scans/queries.ts clientRowsWithin, kind "realScan": this client's REAL
-- scan of the tag, not a shared location, within the window), for the scan's single statement
-- (lib/services/scans/scan-tag.ts). VOLATILE on purpose: PostgreSQL gives each query of a volatile function a
-- new snapshot, so run after the statement's UPDATE has waited for the tag's row lock, it sees the scan of
-- the transaction that held the lock; the statement's own snapshot, taken before the wait, would not, and
-- ten simultaneous scans from one client would all be REAL.
CREATE FUNCTION scan_real_within(p_tag uuid, p_ip_hash text, p_window interval) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF p_ip_hash IS NULL THEN
    RETURN EXISTS (SELECT 1 FROM scans WHERE tag_id = p_tag AND ip_hash IS NULL AND scan_class = 'REAL' AND location_shared = false AND scanned_at > now() - p_window);
  END IF;
  RETURN EXISTS (SELECT 1 FROM scans WHERE tag_id = p_tag AND ip_hash = p_ip_hash AND scan_class = 'REAL' AND location_shared = false AND scanned_at > now() - p_window);
END;
$$;
