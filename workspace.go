package toolgate

import "strings"

// MaxWorkspaceIDLen bounds a workspace id.
const MaxWorkspaceIDLen = 128

// ValidWorkspaceID returns an EInvalid error unless id is a safe workspace
// id. A workspace id names a directory on every platform, so it is 1 to
// 128 of A-Z a-z 0-9 . _ -, starts with a letter or digit (no ".hidden",
// no "-rf" that a shell or tool would read as a flag), does not end in a
// dot, and is not a name Windows reserves for a device (CON, NUL, COM1,
// also with an extension).
func ValidWorkspaceID(id string) error {
	bad := func(why string) error {
		return Errorf(EInvalid, "invalid workspace id %q: %s (want 1 to %d of A-Z a-z 0-9 . _ -, starting with a letter or digit)", id, why, MaxWorkspaceIDLen)
	}
	if id == "" {
		return bad("empty")
	}
	if len(id) > MaxWorkspaceIDLen {
		return bad("too long")
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !alnum && c != '.' && c != '_' && c != '-' {
			return bad("character " + quoteByte(c) + " not allowed")
		}
		if i == 0 && !alnum {
			return bad("must start with a letter or digit")
		}
	}
	if id[len(id)-1] == '.' {
		return bad("must not end in a dot")
	}
	stem, _, _ := strings.Cut(strings.ToUpper(id), ".")
	switch stem {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return bad("a reserved device name")
	}
	if len(stem) == 4 && (strings.HasPrefix(stem, "COM") || strings.HasPrefix(stem, "LPT")) && '0' <= stem[3] && stem[3] <= '9' {
		return bad("a reserved device name")
	}
	return nil
}

func quoteByte(c byte) string {
	if c < 0x20 || c >= 0x7f {
		return "0x" + string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&15])
	}
	return "'" + string(rune(c)) + "'"
}
