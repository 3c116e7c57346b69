-- A lost-pet alert closes itself when its tag leaves LOST, whichever path changed the status (the
-- owner's status change, a transfer, a moderator's deactivation): docs/alerts.md.
CREATE OR REPLACE FUNCTION close_lost_pet_alerts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE lost_pet_alerts SET closed_at = now(), closed_reason = NEW.status::text
  WHERE tag_id = NEW.id AND closed_at IS NULL;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER tags_close_lost_pet_alerts
  AFTER UPDATE OF status ON tags
  FOR EACH ROW
  WHEN (OLD.status = 'LOST' AND NEW.status IS DISTINCT FROM 'LOST')
  EXECUTE FUNCTION close_lost_pet_alerts();
