// Package fsrules keeps the workspace rules documents as files, for a
// gateway running on a single node (DESIGN §5):
//
//	DIR/workspaces/ID/permissions.jsonc
//
// A document is seeded with the default rules the first time it is used,
// may be edited by hand at any time (its version changes and the gateway
// reloads it), and is replaced atomically when toolgate writes it: a
// temporary file in the same directory, fsynced, then renamed over the
// old one, so a reader sees the old document or the new one, never a mix.
package fsrules
