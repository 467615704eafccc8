package shell

import "testing"

func TestMatchers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		f    func(string) bool
		in   string
		want bool
	}{
		{"sql", sqlDestroys, "DROP TABLE users", true},
		{"sql", sqlDestroys, "drop   database\nprod", true},
		{"sql", sqlDestroys, "truncate users", true},
		{"sql", sqlDestroys, "DELETE FROM users;", true},
		{"sql", sqlDestroys, "DELETE FROM s WHERE x < 1; DELETE FROM users", true},
		{"sql", sqlDestroys, "update users set admin=true", true},
		{"sql", sqlDestroys, "ALTER TABLE t DROP COLUMN c", true},
		{"sql", sqlDestroys, "db.users.drop()", true},
		{"sql", sqlDestroys, "db.dropDatabase()", true},
		{"sql", sqlDestroys, "SELECT * FROM users", false},
		{"sql", sqlDestroys, "DELETE FROM sessions WHERE expires < now()", false},
		{"sql", sqlDestroys, "UPDATE users SET name='x' WHERE id=1", false},
		{"sql", sqlDestroys, "ALTER TABLE t ADD COLUMN c int", false},
		{"sql", sqlDestroys, "SELECT last_update FROM t", false},
		{"sql", sqlDestroys, "delete from users where 1=1", true},
		{"sql", sqlDestroys, "DELETE FROM users WHERE ( 1 = 1 )", true},
		{"sql", sqlDestroys, "update users set admin=1 where true", true},
		{"sql", sqlDestroys, "DELETE FROM users WHERE 'a'='a'", true},
		{"sql", sqlDestroys, "DELETE FROM users WHERE id=3 OR 1=1", true},
		{"sql", sqlDestroys, "DELETE FROM users WHERE id=2 AND 1=1", false},
		{"sql", sqlDestroys, "DELETE FROM users WHERE trueish=1", false},
		{"home", homeRoot, "~", true},
		{"home", homeRoot, "~/", true},
		{"home", homeRoot, "$HOME", true},
		{"home", homeRoot, "/home/user/", true},
		{"home", homeRoot, "/Users/me", true},
		{"home", homeRoot, "~bob", true},
		{"home", homeRoot, "/root", true},
		{"home", homeRoot, "/home", false},
		{"home", homeRoot, "/home/user/proj", false},
		{"home", homeRoot, "~/proj", false},
		{"home", homeRoot, ".", false},
		{"unit", accessUnit, "sshd.service", true},
		{"unit", accessUnit, "ssh.socket", true},
		{"unit", accessUnit, "nginx", false},
		{"pod", hostPodSpec, `{"spec": {"hostPID": true}}`, true},
		{"pod", hostPodSpec, `{"spec":{"containers":[{"securityContext":{"privileged":true}}]}}`, true},
		{"pod", hostPodSpec, `{"spec":{"hostNetwork":false}}`, false},
		{"serve", servesSecrets, "/", true},
		{"serve", servesSecrets, "/etc/", true},
		{"serve", servesSecrets, "~/.ssh", true},
		{"serve", servesSecrets, "docs", false},
		{"cred", credentialPath, "~/.ssh/id_rsa", true},
		{"cred", credentialPath, "~/.aws/credentials", true},
		{"cred", credentialPath, "notes.md", false},
		{"secret", secretRef, "$GITHUB_TOKEN", true},
		{"secret", secretRef, "token=${AWS_SECRET_ACCESS_KEY}", true},
		{"secret", secretRef, "$OPENAI_API_KEY", true},
		{"secret", secretRef, "$DB_PASSWORD", true},
		{"secret", secretRef, "$HOME", false},
		{"secret", secretRef, "$SSH_AUTH_SOCK", false},
		{"secret", secretRef, "$PATH:$GOPATH", false},
		{"history", historyVar, "HISTFILE=/dev/null", true},
		{"history", historyVar, "HISTFILE", true},
		{"history", historyVar, "HISTSIZE=0", true},
		{"history", historyVar, "HISTSIZE=1000", false},
		{"history", historyVar, "HISTFILE=~/.bash_history_2", false},
		{"all", allProcesses, ".", true},
		{"all", allProcesses, "", true},
		{"all", allProcesses, "myserver", false},
		{"metadata", metadataURL, "http://169.254.169.254/latest/meta-data/", true},
		{"metadata", metadataURL, "metadata.google.internal/computeMetadata/v1/", true},
		{"metadata", metadataURL, "https://example.com/169.254.169.254", true},
		{"metadata", metadataURL, "https://x169.254.169.254.example", false},
		{"metadata", metadataURL, "http://2852039166/latest/", true},
		{"metadata", metadataURL, "http://0xa9.0xfe.0xa9.0xfe/", true},
		{"metadata", metadataURL, "http://0251.0376.0251.0376/", true},
		{"metadata", metadataURL, "http://169.254.43518/", true},
		{"metadata", metadataURL, "http://[::ffff:169.254.169.254]/", true},
		{"metadata", metadataURL, "http://METADATA.google.internal./x", true},
		{"metadata", metadataURL, "https://10.0.0.1/", false},
		{"metadata", metadataURL, "build.json", false},
		{"everything", everything, ".", true},
		{"everything", everything, ":/", true},
		{"everything", everything, "src/main.go", false},
		{"mount", mountsSecret, "~/.ssh:/keys", true},
		{"mount", mountsSecret, "type=bind,source=~/.aws,target=/a", true},
		{"mount", mountsSecret, "$PWD:/src", false},
	}
	for _, tt := range tests {
		if got := tt.f(tt.in); got != tt.want {
			t.Errorf("%s(%q) = %v, want %v", tt.name, tt.in, got, tt.want)
		}
	}
}

func TestClassifyHost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url  string
		want HostKind
	}{
		{"http://localhost:8080/x", HostLoopback},
		{"http://api.localhost/", HostLoopback},
		{"http://127.0.0.1/", HostLoopback},
		{"http://127.1/", HostLoopback},
		{"http://2130706433/", HostLoopback},
		{"http://0x7f000001/", HostLoopback},
		{"http://[::1]:9000/", HostLoopback},
		{"http://0.0.0.0:3000/", HostLoopback},
		{"http://user:pw@127.0.0.1/", HostLoopback},
		{"http://169.254.169.254/latest/", HostMetadata},
		{"http://169.254.170.2/v2/credentials", HostMetadata},
		{"http://[fd00:ec2::254]/", HostMetadata},
		{"http://100.100.100.200/", HostMetadata},
		{"http://metadata.google.internal/", HostMetadata},
		{"http://metadata/computeMetadata/v1/", HostMetadata},
		{"http://instance-data/latest/", HostMetadata},
		{"http://%31%36%39.254.169.254/", HostMetadata},
		{"http:/169.254.169.254/", HostMetadata},
		{`http:\\169.254.169.254\`, HostMetadata},
		{"HTTP://169.254.\t169.254/", HostMetadata},
		{" http://localhost./", HostLoopback},
		{"http://１６９。２５４。１６９。２５４/", HostMetadata},
		{"http://①⑥⑨.254.169.254/", HostMetadata},
		{"http://ｍｅｔａｄａｔａ.google.internal/", HostMetadata},
		{"http://ＬＯＣＡＬＨＯＳＴ:7070/", HostLoopback},
		{"https://bücher.example/", HostRemote},
		{"localhost:8080/x", HostLoopback},
		{"https://go.dev/doc", HostRemote},
		{"http://169.254.169.254.nip.io/", HostRemote}, // a name: not resolved
		{"http://169.254.169.254%2f@go.dev/", HostRemote},
		{"https://metadata.example.com/", HostRemote},
		{"https://127.0.0.1.example.com/", HostRemote},
		{"https://1.2.3.4.5/", HostRemote},
		{"https://256.1.1.1/", HostRemote},
		{"", HostRemote},
	}
	for _, tt := range tests {
		if got := ClassifyHost(URLHost(tt.url)); got != tt.want {
			t.Errorf("ClassifyHost(URLHost(%q)) = %v, want %v", tt.url, got, tt.want)
		}
	}
}
