// Package tokens keeps toolgate's API credentials (DESIGN §9).
//
// A credential is a bearer token "tg_" followed by 32 random bytes in
// base32. The token is shown once, when it is created; the store keeps only
// its SHA-256 hash, with a name and a role, in a JSON file (DATA/tokens.json,
// mode 0600, replaced atomically). Verify hashes a presented token and
// compares it in constant time with every stored hash.
//
// The file is re-read when it changes on disk (modification time or size),
// so `toolgate tokens create` works while a server runs. Roles are ordered:
// an admin can do everything an approver can, and an approver can read
// everything an agent reads; only agents are kept from answering.
package tokens
