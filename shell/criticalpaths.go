package shell

// CriticalHomeFiles returns the paths, relative to a home directory, whose
// writing is a critical risk (IsCriticalWritePath): shell start-up files,
// git and SSH client configuration, authorized_keys, ~/.npmrc. The kernel
// sandbox protects the same files from confined commands. The slice is a
// copy.
func CriticalHomeFiles() []string {
	out := make([]string, len(homeFiles))
	for i, r := range homeFiles {
		out[i] = r.path
	}
	return out
}
