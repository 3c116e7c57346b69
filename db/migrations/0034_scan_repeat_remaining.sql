-- For how many more milliseconds this client's scans of the tag are REPEAT: the time left in the window of
-- its latest REAL scan of the tag (not a shared location), or NULL when it has none within the window. The
-- scan's single statement (lib/services/scans/scan-tag.ts) classifies by it and hands it back, so an
-- instance that did not store the REAL scan itself (another instance, or before a restart) learns from the
-- first REPEAT how long the client's next scans may skip the transaction (docs/decisions/0051-scan-hot-path.md).
-- scan_real_within stays: instances of the previous release call it until they are replaced.
-- VOLATILE for the same reason as scan_real_within (0033): its query takes a new snapshot after the
-- statement's UPDATE has waited for the tag's row lock, and so sees the scan of the transaction that held it.
CREATE FUNCTION scan_repeat_remaining_ms(p_tag uuid, p_ip_hash text, p_window interval) RETURNS float8 LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  latest timestamptz;
BEGIN
  IF p_ip_hash IS NULL THEN
    SELECT max(scanned_at) INTO latest FROM scans WHERE tag_id = p_tag AND ip_hash IS NULL AND scan_class = 'REAL' AND location_shared = false AND scanned_at > now() - p_window;
  ELSE
    SELECT max(scanned_at) INTO latest FROM scans WHERE tag_id = p_tag AND ip_hash = p_ip_hash AND scan_class = 'REAL' AND location_shared = false AND scanned_at > now() - p_window;
  END IF;
  RETURN extract(epoch FROM (latest + p_window - now())) * 1000;
END;
$$;
