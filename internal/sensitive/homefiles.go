package sensitive

import "slices"

// HomeFileKind is what writing a critical home file risks.
type HomeFileKind uint8

// The kinds of critical home files.
const (
	// StartupFile is a shell's start-up file: it runs in every new shell.
	StartupFile HomeFileKind = iota + 1
	// GitConfig is git's configuration: it can name programs git runs.
	GitConfig
	// ToolConfig is a tool's configuration that runs code (~/.npmrc).
	ToolConfig
	// AuthorizedKeys lets a key log in over SSH.
	AuthorizedKeys
	// SSHConfig is the SSH client's or server's per-user configuration.
	SSHConfig
)

// HomeFile is a file, relative to a home directory, whose writing grants
// persistent access or runs code later.
type HomeFile struct {
	Path string
	Kind HomeFileKind
}

// homeFiles is sorted by path.
var homeFiles = [...]HomeFile{
	{".bash_login", StartupFile},
	{".bash_logout", StartupFile},
	{".bash_profile", StartupFile},
	{".bashrc", StartupFile},
	{".config/fish/config.fish", StartupFile},
	{".config/git/config", GitConfig},
	{".cshrc", StartupFile},
	{".gitconfig", GitConfig},
	{".kshrc", StartupFile},
	{".login", StartupFile},
	{".mkshrc", StartupFile},
	{".npmrc", ToolConfig},
	{".profile", StartupFile},
	{".ssh/authorized_keys", AuthorizedKeys},
	{".ssh/authorized_keys2", AuthorizedKeys},
	{".ssh/config", SSHConfig},
	{".ssh/environment", SSHConfig},
	{".ssh/rc", SSHConfig},
	{".tcshrc", StartupFile},
	{".zlogin", StartupFile},
	{".zlogout", StartupFile},
	{".zprofile", StartupFile},
	{".zshenv", StartupFile},
	{".zshrc", StartupFile},
}

// why says what a critical home file of kind k is, as an Entry's Reason.
func (k HomeFileKind) why() string {
	switch k {
	case StartupFile:
		return "is a shell start-up file, run in every new shell"
	case GitConfig:
		return "is git's configuration, which names programs git runs"
	case ToolConfig:
		return "is a tool's configuration, which can run code"
	case AuthorizedKeys:
		return "lets a key log in over SSH"
	default:
		return "is the SSH client's configuration, which can run commands"
	}
}

// HomeFiles returns the critical home files, sorted by path: the shell
// analysis rates writing one a critical risk, and the kernel sandbox
// protects the same files from confined commands. The slice is a copy.
func HomeFiles() []HomeFile { return slices.Clone(homeFiles[:]) }
