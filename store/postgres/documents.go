package postgres

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/fsrules"
)

// loadDocument returns a document and its revision; ok is false if there
// is none.
func (db *DB) loadDocument(ctx context.Context, name string) (body []byte, revision int64, ok bool, err error) {
	if db.closed.Load() {
		return nil, 0, false, db.errClosed("read document " + name)
	}
	var s string
	ctx, cancel := db.bound(ctx)
	defer cancel()
	err = db.pool.QueryRow(ctx, `SELECT body, revision FROM documents WHERE name = $1`, name).Scan(&s, &revision)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, wrap("read document "+name, err)
	}
	return []byte(s), revision, true, nil
}

// updateDocument applies edit to a document in one transaction that locks
// its row, so concurrent edits on any number of nodes apply one after the
// other and none is lost. seed is the body of a document that does not
// exist yet. entry, filled with the new revision and the author ctx
// carries (store.WithAuthor), is appended to the audit log in the same
// transaction, unless its Kind is "". An edit that changes nothing writes
// nothing.
func (db *DB) updateDocument(ctx context.Context, name string, seed []byte, entry toolgate.AuditEntry, edit func([]byte) ([]byte, error)) (int64, error) {
	op := "update document " + name
	if db.closed.Load() {
		return 0, db.errClosed(op)
	}
	var rev int64
	err := db.write(ctx, func(tx pgx.Tx) error {
		now := time.Now().UnixNano()
		if _, err := tx.Exec(ctx, `INSERT INTO documents (name, body, revision, updated_at) VALUES ($1, $2, 1, $3)
			ON CONFLICT (name) DO NOTHING`, name, string(seed), now); err != nil {
			return err
		}
		var cur string
		if err := tx.QueryRow(ctx, `SELECT body, revision FROM documents WHERE name = $1 FOR UPDATE`, name).Scan(&cur, &rev); err != nil {
			return err
		}
		out, err := edit([]byte(cur))
		if err != nil {
			return err
		}
		if string(out) == cur {
			return nil
		}
		rev++
		if _, err := tx.Exec(ctx, `UPDATE documents SET body = $2, revision = $3, updated_at = $4 WHERE name = $1`, name, string(out), rev, now); err != nil {
			return err
		}
		if entry.Kind == "" {
			return nil
		}
		entry.Time = time.Unix(0, now).UTC()
		entry.Reason = "revision " + strconv.FormatInt(rev, 10)
		if who, via := store.AuthorFrom(ctx); who != "" {
			entry.Who, entry.Via = who, via
		}
		return db.appendAudit(ctx, tx, []toolgate.AuditEntry{entry})
	})
	return rev, wrap(op, err)
}

// Rules returns the workspace rules documents kept in the database, each
// seeded with defaults on first use. It implements store.FeedRules: every
// change is an audit entry of kind "rules.changed" on the feed, so a node
// may keep what it compiled from a document until that entry arrives.
// With Tokens it implements store.Keeper.
func (db *DB) Rules(defaults []byte) store.Rules {
	if len(defaults) == 0 {
		defaults = []byte("{}\n")
	}
	return &Rules{db: db, defaults: bytes.Clone(defaults)}
}

// Rules keeps workspace rules documents as rows (DESIGN §5).
type Rules struct {
	db       *DB
	defaults []byte
}

var (
	_ store.FeedRules = (*Rules)(nil)
	_ store.Exister   = (*Rules)(nil)
)

// RulesChanged is the audit kind of a rules document write.
const RulesChanged = "rules.changed"

// rulesName names a workspace's document; workspace ids are checked as
// the file store checks them, so both stores accept the same ids.
func rulesName(workspace string) (string, error) {
	if err := fsrules.ValidWorkspace(workspace); err != nil {
		return "", err
	}
	return "rules/" + workspace, nil
}

// Document implements store.Rules: the document and its revision,
// seeding it with the defaults on first use.
func (r *Rules) Document(ctx context.Context, workspace string) ([]byte, string, error) {
	name, err := rulesName(workspace)
	if err != nil {
		return nil, "", err
	}
	body, rev, ok, err := r.db.loadDocument(ctx, name)
	if err != nil {
		return nil, "", err
	}
	if !ok {
		// Seed it: the row is created empty and filled with the defaults
		// once, by whichever node gets there first; a document another
		// node wrote meanwhile is kept. No entry: every node that reads
		// the document now reads the same defaults, so no cache is stale.
		if _, err = r.db.updateDocument(ctx, name, nil, toolgate.AuditEntry{}, func(cur []byte) ([]byte, error) {
			if len(cur) > 0 {
				return cur, nil
			}
			return r.defaults, nil
		}); err != nil {
			return nil, "", err
		}
		if body, rev, _, err = r.db.loadDocument(ctx, name); err != nil {
			return nil, "", err
		}
	}
	return body, strconv.FormatInt(rev, 10), nil
}

func (r *Rules) entry(workspace, outcome, who string) toolgate.AuditEntry {
	return toolgate.AuditEntry{Kind: RulesChanged, Workspace: workspace, Outcome: outcome, Who: who, Via: "store"}
}

// PutDocument implements store.Rules.
func (r *Rules) PutDocument(ctx context.Context, workspace string, src []byte) error {
	name, err := rulesName(workspace)
	if err != nil {
		return err
	}
	_, err = r.db.updateDocument(ctx, name, r.defaults, r.entry(workspace, "replaced", ""), func([]byte) ([]byte, error) { return src, nil })
	return err
}

// UpdateDocument implements store.Rules: edit runs on the current text
// with the row locked, so appends from several nodes all land.
func (r *Rules) UpdateDocument(ctx context.Context, workspace string, edit func(src []byte) ([]byte, error)) error {
	name, err := rulesName(workspace)
	if err != nil {
		return err
	}
	_, err = r.db.updateDocument(ctx, name, r.defaults, r.entry(workspace, "edited", ""), edit)
	return err
}

// Exists implements store.Exister: whether the workspace's document
// exists, without seeding it.
func (r *Rules) Exists(ctx context.Context, workspace string) (bool, error) {
	name, err := rulesName(workspace)
	if err != nil {
		return false, err
	}
	_, _, ok, err := r.db.loadDocument(ctx, name)
	return ok, err
}

// ChangesOnFeed implements store.FeedRules.
func (r *Rules) ChangesOnFeed() {}

// Tokens returns the credential list kept in the database, for
// tokens.OpenBackend: every node verifies against the same list.
func (db *DB) Tokens() store.Credentials { return &Tokens{db: db} }

// Tokens keeps the credential list (token hashes, never tokens) as a
// document. It implements tokens.Backend.
type Tokens struct{ db *DB }

// Load returns the list and its revision; nil and "" if there is none.
func (t *Tokens) Load() ([]byte, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	body, rev, ok, err := t.db.loadDocument(ctx, "tokens")
	if err != nil || !ok {
		return nil, "", err
	}
	return body, strconv.FormatInt(rev, 10), nil
}

// Update applies change to the list atomically across nodes.
func (t *Tokens) Update(change func([]byte) ([]byte, error)) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := t.db.updateDocument(ctx, "tokens", nil, toolgate.AuditEntry{Kind: store.TokensChanged, Outcome: "changed", Via: "store"}, change)
	return err
}
