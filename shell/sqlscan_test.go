package shell

import "testing"

// TestSQLOneReading holds texts the read-only and destructive tests used
// to read differently (one saw a quote or comment the other did not):
// both now answer from sqlScan. A text that reads never destroys.
func TestSQLOneReading(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q               string
		reads, destroys bool
	}{
		// Destructive SQL hidden by comments and quotes.
		{"DROP/**/TABLE users", false, true},
		{"DROP -- x\nTABLE users", false, true},
		{"DROP -- x\rTABLE users", false, true},
		{"DELETE FROM users -- WHERE id = 1", false, true},
		{"DELETE FROM users /* WHERE id = 1 */", false, true},
		{"DELETE FROM users # WHERE id = 1", false, true},
		{"DELETE FROM users /* /* */ WHERE id = 1 */", false, true},
		{"DELETE FROM\"users\"", false, true},
		{"TRUNCATE\"users\"", false, true},
		{"TRUNCATE`users`", false, true},
		{"select 1 /*! ; DROP TABLE users */", false, true},
		{"select 1; /*!50000 DROP TABLE users */", false, true},
		{"DROP MATERIALIZED VIEW v", false, true},
		{"drop keyspace prod", false, true},
		{"DROP FUNCTION f", false, true},
		{"UPDATE users SET admin = true -- WHERE id = 1", false, true},
		{"with d as (delete from t returning *) select * from d where id = 1", false, true},
		{"DELETE FROM users WHERE name = 'x\\' OR 1=1 -- '", false, true},
		{"select 'x\\'; drop table t; -- '", false, true},
		{"do $$ begin delete from users; end $$", false, true},
		{"do $f$ begin execute 'drop table users'; end $f$", false, true},
		{"select dblink_exec('drop table users')", false, true},
		{"select 'drop table ' || tablename from pg_tables \\gexec", false, true},
		{"\\i evil.sql", false, true},
		// A statement :x begins is its value, which \gset, \getenv or
		// another -c's \set may give out of sight of -v's check.
		{":x", false, true},
		{"select 'drop table t' as x \\gset\n:x", false, true},
		{"\\set x 'drop table t'\n:x", false, true},
		{"\\set x drop' table t'\n:x", false, true},
		{"\\x \\\\ drop table t", false, true},
		{"select 1 /*M! ; drop table t */", false, true},
		{"select 1 /*M!100000 ; drop table t */", false, true},
		{"select 1 /*M tidy ; drop table t */", false, false},
		{":memory:", false, false},
		{"\\set x 'select 1'", false, false},
		{"\\set ON_ERROR_STOP on", false, false},
		{"\\x \\\\ select 1", false, false},
		{"delete from t where :cond", false, true},
		{"db.users.drop ()", false, true},
		{"db.dropDatabase ( )", false, true},
		{"db.users.deleteMany({ })", false, true},
		{"db.users.remove( {} , {justOne: false})", false, true},
		{"select 1 \\G drop table t", false, true},
		{"select 1 \\; drop table t", false, true},
		{"UPDATE users u JOIN x ON u.id = x.id SET u.admin = 1", false, true},
		{"db.users.updateMany({}, {$set: {admin: true}})", false, true},
		{"select 1 'unclosed; drop table t", false, true},
		// Their benign twins: the same words as data.
		{"SELECT 'DROP TABLE x'", true, false},
		{"select * from logs where msg like '%delete from users%'", true, false},
		{"select 'a--b', 'c/*d', 'e#f' from t", true, false},
		{`select "drop" from t`, true, false},
		{"UPDATE users SET note = ';' WHERE id = 1", false, false},
		{"UPDATE users SET note = 'please drop the table' WHERE id = 1", false, false},
		{"DELETE FROM users WHERE id = 1 -- tidy", false, false},
		{"DELETE FROM users /* one */ WHERE id = 1", false, false},
		{"DELETE FROM sessions WHERE expires < now() RETURNING id", false, false},
		{"insert into t values (1) on conflict (id) do update set n = excluded.n", false, false},
		{"create table t (id int references u on delete cascade on update set null)", false, false},
		{"grant select, delete on t to app", false, false},
		{"revoke delete on t from app", false, false},
		{"select truncate(1.5, 0)", false, false},
		{"select * from t for update", false, false},
		{"delete from t where id = :id", false, true},
		{"select * from t where id = :id", false, false},
		{"db.users.deleteMany({active: false})", false, false},
		{"\\dt", true, false},
		{".tables", true, false},
		{"select flushall from t", false, true},
	} {
		if got := sqlReadsOnly(c.q); got != c.reads {
			t.Errorf("sqlReadsOnly(%q) = %v, want %v", c.q, got, c.reads)
		}
		if got := sqlDestroys(c.q); got != c.destroys {
			t.Errorf("sqlDestroys(%q) = %v, want %v", c.q, got, c.destroys)
		}
	}
}

// FuzzSQLOneReading checks that the two tests never answer from two
// readings: text that only reads never drops or empties data.
func FuzzSQLOneReading(f *testing.F) {
	for _, q := range []string{"select 'drop table x'", "DROP/**/TABLE t", "select 1 /*! ; drop table t */",
		"delete from t -- where id = 1", "do $$ delete from t $$", `\dt`, "select 'x\\'; drop table t; -- '"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if sqlReadsOnly(q) && sqlDestroys(q) {
			t.Errorf("%q both reads and destroys", q)
		}
	})
}
