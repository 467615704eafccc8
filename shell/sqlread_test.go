package shell

import "testing"

func TestSQLReadsOnly(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q    string
		want bool
	}{
		{"select version()", true},
		{"SELECT count(*) FROM orders WHERE id IN (1, 2);", true},
		{"select id, email from users limit 5", true},
		{"show tables", true},
		{"describe users", true},
		{"explain select * from t", true},
		{`\dt`, true},
		{`\d users`, true},
		{".schema", true},
		{".tables users", true},
		{"select 'drop table x'", true},
		{"", false},
		{";", false},
		{"drop table x", false},
		{"select 1; drop table x", false},
		{"explain analyze delete from t", false},
		{"with d as (delete from t returning *) select * from d", false},
		{"select * into outfile '/tmp/x' from users", false},
		{"select * into backup from users", false},
		{"select pg_read_file('/etc/passwd')", false},
		{"select load_extension('./evil')", false},
		{"select writefile('x', 'y')", false},
		{"select nextval ('s')", false},
		{"select my_func()", false},
		{`select "lo_export"(1, '/tmp/x')`, false},
		{"select `sys_exec`('id')", false},
		{"select lo_export\r(1, '/tmp/x')", false},
		{"select lo_export\f(1, '/tmp/x')", false},
		{"select fé(1)", false},
		{`select "id" from "users"`, true},
		{"select count\r(*) from t", true},
		{"select :x", false},
		{"select :'x'", false},
		{"select * from t where id = :{?x}", false},
		{"select id::text, '10:30' from t", true},
		{"select 1 -- ; drop table x", false},
		{"select /* x */ 1", false},
		{"select $$x$$", false},
		{`select 1 \g /tmp/x`, false},
		{`\! id`, false},
		{`\o /tmp/x`, false},
		{`\dt \! id`, false},
		{".shell rm x", false},
		{".output /tmp/x", false},
		{"select 'unclosed", false},
		{"insert into t values (1)", false},
		{"set role admin", false},
		{"pragma journal_mode=wal", false},
	} {
		if got := sqlReadsOnly(c.q); got != c.want {
			t.Errorf("sqlReadsOnly(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}
