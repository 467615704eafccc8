package sqlite

import "context"

// queryRows runs a read query and scans each row with scan; op names the
// operation in errors.
func queryRows[T any](ctx context.Context, db *DB, op, q string, args []any, scan func(rowScanner) (T, error)) ([]T, error) {
	rows, err := db.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, wrap(op, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, wrap(op, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(op, err)
	}
	return out, nil
}
