-- toolgate schema, version 9: which agent credential created each
-- workspace.
--
-- The cap on new workspaces per agent credential counts these rows, on
-- whichever node the call arrives; a workspace is claimed once, by its
-- first user.

CREATE TABLE workspace_creators (
	workspace TEXT PRIMARY KEY,
	owner     TEXT NOT NULL
);
CREATE INDEX workspace_creators_owner ON workspace_creators (owner);
