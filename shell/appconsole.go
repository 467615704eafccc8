package shell

import (
	"path"
	"strings"
)

// Code given inline to a web framework's application runner (DESIGN §3.5,
// inline code): "rails runner 'User.destroy_all'", "php artisan tinker
// --execute='…'" and Django's "manage.py shell -c '…'" run a program in
// the application, with its database connection, that no rule can read,
// like ruby -e. So does the console fed on its input ("manage.py shell <
// fix.py", "rails console <<EOF"). A script file stays a file: "rails
// runner script/cleanup.rb".

// appScripts are the application runners known by name when they are the
// command itself (bin/rails, ./artisan, gitlab-rails).
var appScripts = [...]string{"rails", "gitlab-rails", "artisan", "manage.py", "django-admin"}

// appInline classes the inline code an application runner is given: the
// runner is the command (bin/rails) or an interpreter's script (php
// artisan; bundle exec rails is the rails command).
func appInline(cmd *Command, name string, roles role, known bool, norm []string, in stdin) {
	script, rest, ok := runsAppScript(name, roles, norm)
	if !ok && !known {
		for _, s := range appScripts {
			if path.Base(name) == s {
				script, rest, ok = name, norm, true
			}
		}
	}
	if !ok {
		return
	}
	if code, ok := appCode(rest); ok {
		addClass(cmd, ClassRisk{Class: ClassInlineCode, Reason: script + " runs code given inline in the application, which no rule can read: " + clip(code, 60), Token: code})
	} else if in.kind != stdinNone && appConsole(rest) {
		what := "a file or pipe"
		if in.kind == stdinText {
			what = "its input: " + clip(in.script, 60)
		}
		addClass(cmd, ClassRisk{Class: ClassInlineCode, Reason: script + " runs code in the application from " + what, Token: script})
	}
}

// appConsole reports an application console, which runs the code on its
// input: rails console, artisan tinker, Django's shell (and
// django-extensions' shell_plus).
func appConsole(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			switch a {
			case "console", "c", "tinker", "shell", "shell_plus":
				return true
			}
			return false
		}
	}
	return false
}

// appCode returns the code an application runner's arguments give inline:
// rails runner CODE (a file ending in .rb is a script), artisan tinker
// --execute CODE, manage.py shell -c CODE.
func appCode(args []string) (string, bool) {
	verb, i := "", 0
	for ; i < len(args); i++ {
		if !strings.HasPrefix(args[i], "-") {
			verb = args[i]
			break
		}
	}
	rest := args[min(i+1, len(args)):]
	switch verb {
	case "runner", "r":
		for j := 0; j < len(rest); j++ {
			a := rest[j]
			switch {
			case a == "-e" || a == "--environment":
				j++ // the environment's name
			case strings.HasPrefix(a, "-") && a != "-":
			default:
				return a, !strings.HasSuffix(a, ".rb")
			}
		}
	case "shell", "shell_plus":
		// Django: manage.py shell -c CODE, --command CODE.
		for j, a := range rest {
			if (a == "-c" || a == "--command") && j+1 < len(rest) {
				return rest[j+1], true
			}
			if v, ok := strings.CutPrefix(a, "--command="); ok {
				return v, true
			}
		}
	case "tinker":
		for j, a := range rest {
			if a == "--execute" && j+1 < len(rest) {
				return rest[j+1], true
			}
			if v, ok := strings.CutPrefix(a, "--execute="); ok {
				return v, true
			}
		}
	}
	return "", false
}
