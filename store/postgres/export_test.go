package postgres

// AppendCounts returns how many append groups committed in one round
// trip, how many in two, and how many one-round-trip attempts found the
// head moved.
func (db *DB) AppendCounts() (fast, slow, missed int64) {
	return db.appends.fast.Load(), db.appends.slow.Load(), db.appends.missed.Load()
}
