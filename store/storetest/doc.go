// Package storetest is the conformance suite every store.Store backend
// runs: one set of tests, so that SQLite and PostgreSQL (and any test
// double) keep the same guarantees.
//
// A backend's test calls Run with a function that opens an empty store, and
// RunPersistent with one that opens the store kept under a directory, so
// the suite can close it and open it again:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) store.Store {
//			db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "toolgate.db"))
//			if err != nil {
//				t.Fatal(err)
//			}
//			return db
//		})
//	}
package storetest
