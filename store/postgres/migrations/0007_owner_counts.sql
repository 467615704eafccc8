-- toolgate schema, version 7: what an agent credential holds, counted by
-- index.
--
-- Quotas per agent credential (pending approvals, new sessions) count the
-- sessions a credential owns and the approvals pending in them before
-- each new one, on whichever node the call arrives: by owner and creation
-- time, not a walk of every session.

CREATE INDEX sessions_owner ON sessions (owner, created_at);
