-- toolgate schema, version 6: time-boxed grants.
--
-- grants.expires_at (unix nanoseconds, NULL for a grant without end) is
-- when an approver's "allow for 30 minutes" stops counting: every node
-- ignores the grant from then on, by its own clock.

ALTER TABLE grants ADD COLUMN expires_at INTEGER;
