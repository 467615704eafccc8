package shell

import (
	"slices"
	"strings"
)

// inlineCode returns the program given inline to an interpreter that is
// not a shell (python -c, node -e, perl -e, a heredoc or here-string into
// python), and whether there is one. Shell scripts are parsed instead.
// r is name's roles (rolesOf).
func inlineCode(name string, r role, args []word, in stdin) (string, bool) {
	if !scriptRunner(name, r) {
		return "", false
	}
	key := interpreterKey(name)
	code, val := interpreterOpts(key)
	words := r&roleWordOptions != 0
	// unsure: the word before is an option the table may not know takes
	// a value (node --require MOD, perl -I DIR), so the next word may be
	// that value, not the script file.
	unsure := false
	for i := 0; i < len(args); i++ {
		t := args[i].text
		was := unsure
		unsure = strings.HasPrefix(t, "-") && !strings.Contains(t, "=") && t != "-" && t != "--"
		switch {
		case t == "--eval" || t == "--print" || t == "--command" || t == "eval" || t == "-eval" || t == "--execute" || t == "-execute":
			if i+1 < len(args) {
				return args[i+1].text, true
			}
			return "", true
		case strings.HasPrefix(t, "--eval=") || strings.HasPrefix(t, "--print="):
			_, v, _ := strings.Cut(t, "=")
			return v, true
		case words && len(t) > 1 && t[0] == '-' && t[1] != '-':
			if len(t) == 2 && strings.IndexByte(code, t[1]) >= 0 {
				if i+1 < len(args) {
					return args[i+1].text, true
				}
				return "", true
			}
		case len(t) > 1 && t[0] == '-' && t[1] != '-':
			for j := 1; j < len(t); j++ {
				if strings.IndexByte(code, t[j]) >= 0 {
					if key == "python" && t[j] == 'm' {
						return "", false // a module, not inline code
					}
					if j+1 < len(t) {
						return t[j+1:], true
					}
					if i+1 < len(args) {
						return args[i+1].text, true
					}
					return "", true
				}
				if strings.IndexByte(val, t[j]) >= 0 {
					if j == len(t)-1 {
						i++
						unsure = false
					}
					break
				}
			}
		case !strings.HasPrefix(t, "-"):
			if isStdinPath(t) && in.kind == stdinText {
				return in.script, true
			}
			if was {
				// Perhaps the option's value: code given after it is
				// still code.
				if code, ok := inlineCode(name, r, args[i+1:], stdin{}); ok {
					return code, true
				}
			}
			return "", false // a script file
		}
	}
	if in.kind == stdinText {
		return in.script, true // python <<EOF, node <<<'…'
	}
	return "", false
}

// codeSigns are what a scan of inline code looks for to name its risk:
// running processes, deleting files, the network, and code built at run
// time (which hides the rest).
var codeSigns = []struct {
	what  string
	marks []string
}{
	{"runs processes", []string{"system(", "popen", "subprocess", "exec(", "execSync", "spawn", "child_process", "os.exec", "Runtime.getRuntime", "pcntl_exec", "shell_exec", "passthru", "`", "%x", "Process.", "Command::new"}},
	{"deletes files", []string{"rmtree", "remove(", "unlink", "rmdir", "rmSync", "rm(", "File.delete", "os.RemoveAll", "Remove-Item", "truncate"}},
	{"writes files", []string{"open(", "writeFile", "write_text", "write_bytes", "File.write", "fopen", "file_put_contents", "Set-Content", "Out-File"}},
	{"uses the network", []string{"socket", "http", "urllib", "requests", "fetch(", "net.", "Net::", "curl", "XMLHttpRequest", "WebClient", "Invoke-WebRequest", "smtplib", "ftplib", "paramiko"}},
	{"builds code at run time", []string{"eval(", "compile(", "__import__", "importlib", "getattr(", "base64", "b64decode", "fromhex", "decode(", "Function(", "atob(", "unpack(", "chr("}},
}

// codeWrites reports whether a scan of inline code finds it writing or
// deleting files.
func codeWrites(code string) (writes, deletes bool) {
	found := codeDoes(code)
	return slices.Contains(found, "writes files"), slices.Contains(found, "deletes files")
}

// codeDoes lists what a scan of inline code finds it doing (codeSigns).
func codeDoes(code string) []string {
	var found []string
	for _, s := range codeSigns {
		for _, m := range s.marks {
			if strings.Contains(code, m) {
				found = append(found, s.what)
				break
			}
		}
	}
	return found
}

// inlineReason names what inline code does, as far as a scan can tell.
func inlineReason(name, code string) string {
	found := codeDoes(code)
	r := name + " runs a program given inline, which no rule can read"
	if len(found) > 0 {
		r += "; it " + strings.Join(found, ", ")
	}
	return r
}
