package sensitive

import (
	"maps"
	"slices"
	"strings"
)

// Reasons shared by several entries.
const (
	sshKeys     = "holds SSH private keys"
	cloudCreds  = "holds cloud credentials"
	cluster     = "holds cluster credentials (Kubernetes)"
	pkgToken    = "holds a package registry token"
	gitCreds    = "holds git hosting credentials"
	browser     = "is a browser profile (saved passwords, cookies, sessions)"
	keychain    = "is a keychain (saved passwords and keys)"
	history     = "is shell history (commands often carry tokens and passwords)"
	autostart   = "holds jobs and services that run later by themselves"
	onPath      = "is on every user's PATH: a program put there runs in place of the one asked for"
	onUserPath  = "is on the user's PATH: a program put there runs in place of the one asked for"
	agentConfig = "configures an AI agent (its permissions, hooks and MCP servers)"
	editorTasks = "configures the editor's tasks and settings, which run commands when the folder opens"
	npmRuns     = "configures npm for the project: its script-shell, node-options, git and onload settings run a program in every later npm command"
	yarnRuns    = "configures yarn for the project: its yarnPath, plugins and shell settings run a program in every later yarn command"
	hookManager = "holds git hooks a hook manager installs, which run on every commit, checkout and push"
	ciRuns      = "is a CI pipeline, which runs its commands with the repository's secrets on the next push"
	devcontRuns = "configures the dev container, whose commands (initializeCommand, postCreateCommand…) run when the folder is opened"
	agentRules  = "holds instructions every later agent session in the project follows (an injected instruction persists)"
	editorRC    = "runs its commands every time that program starts"
	cargoRuns   = "configures cargo: its rustc-wrapper, runner and registry settings run a program or fetch code in every later cargo build"
	pkgIndex    = "says where packages come from (its index and source settings) for every later"
	sysPackages = "says where the machine's packages come from and which keys they are trusted by: root installs what it names"
	resolves    = "decides where host names resolve, so a line there sends the machine's connections (package registries, git remotes) to another host"
	libraries   = "says where every program loads its shared libraries from"
	sharedLibs  = "holds the shared libraries programs load: one put there runs inside every program that loads it"
	tfState     = "is Terraform state: it keeps the infrastructure's secrets (passwords, keys, tokens) in plain text"
)

// entries is the one list of sensitive paths, credentials first: Lookup
// returns the first entry that covers a path. The index Lookup uses is Go
// data (table_data.go, generated from this list by TestTableData, which
// checks it against compile(entries())): building it at run time cost
// every hook process ~0.14M instructions and ~60 allocations.
// After editing the list: go test ./internal/sensitive -run TestTableData -update-table
func entries() []Entry {
	return []Entry{
		// SSH.
		{Path: ".ssh/", Anchor: Home, Kind: Credential, Except: []string{"*.pub", "known_hosts", "known_hosts.old", "config"}, Reason: sshKeys},
		{Path: ".ssh/id_*", Anchor: Anywhere, Kind: Credential, Except: []string{"*.pub"}, Reason: sshKeys},
		{Path: "ssh/ssh_host_*_key", Anchor: Anywhere, Kind: Credential, Reason: "holds the machine's SSH host keys"},

		// Cloud.
		{Path: ".aws/", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (AWS)"},
		{Path: ".aws/credentials", Anchor: Anywhere, Kind: Credential, Reason: cloudCreds + " (AWS)"},
		{Path: ".config/gcloud/", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (Google Cloud)"},
		{Path: "application_default_credentials.json", Anchor: Anywhere, Kind: Credential, Reason: cloudCreds + " (Google Cloud)"},
		{Path: ".azure/", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (Azure)"},
		{Path: ".oci/", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (Oracle Cloud)"},
		{Path: ".config/doctl/", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (DigitalOcean)"},
		{Path: ".terraform.d/credentials.tfrc.json", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (Terraform Cloud)"},
		{Path: ".vault-token", Anchor: Home, Kind: Credential, Reason: "holds a HashiCorp Vault token"},
		{Path: ".kube/", Anchor: Home, Kind: Credential, Except: []string{"cache", "http-cache"}, Reason: cluster},
		{Path: ".kube/config", Anchor: Anywhere, Kind: Credential, Reason: cluster},
		{Path: "kubeconfig", Anchor: Anywhere, Kind: Credential, Reason: cluster},
		{Path: ".docker/config.json", Anchor: Anywhere, Kind: Credential, Reason: "holds container registry credentials (docker config)"},

		// Network and package registries.
		{Path: ".netrc", Anchor: Anywhere, Kind: Credential, Reason: "holds login passwords for network hosts (.netrc)"},
		{Path: "_netrc", Anchor: Home, Kind: Credential, Reason: "holds login passwords for network hosts (.netrc)"},
		{Path: ".npmrc", Anchor: Home, Kind: Credential, Reason: pkgToken + " (npm)"},
		{Path: ".yarnrc.yml", Anchor: Home, Kind: Credential, Reason: pkgToken + " (yarn)"},
		{Path: ".pypirc", Anchor: Anywhere, Kind: Credential, Reason: pkgToken + " (PyPI)"},
		{Path: ".gem/credentials", Anchor: Home, Kind: Credential, Reason: pkgToken + " (RubyGems)"},
		{Path: ".cargo/credentials", Anchor: Home, Kind: Credential, Reason: pkgToken + " (crates.io)"},
		{Path: ".cargo/credentials.toml", Anchor: Home, Kind: Credential, Reason: pkgToken + " (crates.io)"},
		{Path: ".m2/settings.xml", Anchor: Home, Kind: Credential, Reason: pkgToken + " (Maven)"},
		{Path: ".gradle/gradle.properties", Anchor: Home, Kind: Credential, Reason: pkgToken + " (Gradle)"},
		{Path: ".config/pip/pip.conf", Anchor: Home, Kind: Credential, Reason: pkgToken + " (pip index)"},
		{Path: ".git-credentials", Anchor: Anywhere, Kind: Credential, Reason: gitCreds},
		{Path: ".config/gh/hosts.yml", Anchor: Home, Kind: Credential, Reason: gitCreds + " (GitHub CLI)"},
		{Path: ".config/hub", Anchor: Home, Kind: Credential, Reason: gitCreds + " (hub)"},
		{Path: ".config/glab-cli/", Anchor: Home, Kind: Credential, Reason: gitCreds + " (GitLab CLI)"},
		{Path: ".config/git/credentials", Anchor: Home, Kind: Credential, Reason: gitCreds},
		{Path: ".config/github-copilot/", Anchor: Home, Kind: Credential, Reason: "holds GitHub Copilot's login token"},
		{Path: ".config/rclone/rclone.conf", Anchor: Home, Kind: Credential, Reason: "holds the tokens and passwords of rclone's remotes"},
		// Developer platforms' and services' CLIs keep their logins in
		// the home directory: API keys, access and refresh tokens.
		{Path: ".s3cfg", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (s3cmd)"},
		{Path: ".boto", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (gsutil, boto)"},
		{Path: ".mc/config.json", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (MinIO client)"},
		{Path: ".aliyun/config.json", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (Alibaba Cloud)"},
		{Path: ".bluemix/config.json", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (IBM Cloud)"},
		{Path: ".config/hcloud/cli.toml", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (Hetzner Cloud)"},
		{Path: ".config/scw/config.yaml", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (Scaleway)"},
		{Path: ".config/linode-cli", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (Linode)"},
		{Path: ".config/exoscale/exoscale.toml", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (Exoscale)"},
		{Path: ".vultr-cli.yaml", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (Vultr)"},
		{Path: ".civo.json", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (Civo)"},
		{Path: ".ovh.conf", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (OVHcloud)"},
		{Path: ".config/openstack/clouds.yaml", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (OpenStack)"},
		{Path: ".config/openstack/secure.yaml", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (OpenStack)"},
		{Path: "etc/openstack/clouds.yaml", Anchor: Root, Kind: Credential, Reason: cloudCreds + " (OpenStack)"},
		{Path: ".config/atlascli/", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (MongoDB Atlas)"},
		{Path: ".config/mongocli.toml", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (MongoDB Atlas)"},
		{Path: ".config/containers/auth.json", Anchor: Home, Kind: Credential, Reason: "holds container registry credentials (podman, buildah, skopeo)"},
		{Path: "run/user/*/containers/auth.json", Anchor: Root, Kind: Credential, Reason: "holds container registry credentials (podman, buildah, skopeo)"},
		{Path: ".config/helm/registry/config.json", Anchor: Home, Kind: Credential, Reason: "holds chart registry credentials (Helm)"},
		{Path: ".config/helm/repositories.yaml", Anchor: Home, Kind: Credential, Reason: "holds chart repositories' passwords (Helm)"},
		{Path: "Library/Preferences/helm/registry/config.json", Anchor: Home, Kind: Credential, Reason: "holds chart registry credentials (Helm)"},
		{Path: "Library/Preferences/helm/repositories.yaml", Anchor: Home, Kind: Credential, Reason: "holds chart repositories' passwords (Helm)"},
		{Path: ".config/netlify/", Anchor: Home, Kind: Credential, Reason: "holds Netlify CLI's login token"},
		{Path: "Library/Preferences/netlify/", Anchor: Home, Kind: Credential, Reason: "holds Netlify CLI's login token"},
		{Path: ".netlify/config.json", Anchor: Home, Kind: Credential, Reason: "holds Netlify CLI's login token"},
		{Path: ".local/share/com.vercel.cli/", Anchor: Home, Kind: Credential, Reason: "holds Vercel CLI's login token"},
		{Path: "Library/Application Support/com.vercel.cli/", Anchor: Home, Kind: Credential, Reason: "holds Vercel CLI's login token"},
		{Path: ".vercel/auth.json", Anchor: Home, Kind: Credential, Reason: "holds Vercel CLI's login token"},
		{Path: ".now/auth.json", Anchor: Home, Kind: Credential, Reason: "holds Vercel CLI's login token"},
		{Path: ".wrangler/config/", Anchor: Home, Kind: Credential, Reason: "holds Cloudflare Wrangler's login token"},
		{Path: ".config/.wrangler/config/", Anchor: Home, Kind: Credential, Reason: "holds Cloudflare Wrangler's login token"},
		{Path: "Library/Preferences/.wrangler/config/", Anchor: Home, Kind: Credential, Reason: "holds Cloudflare Wrangler's login token"},
		{Path: ".cloudflared/", Anchor: Home, Kind: Credential, Except: []string{"config.yml", "config.yaml"}, Reason: "holds Cloudflare Tunnel's certificate and tunnel credentials"},
		{Path: ".fly/config.yml", Anchor: Home, Kind: Credential, Reason: "holds Fly.io's access token"},
		{Path: ".railway/config.json", Anchor: Home, Kind: Credential, Reason: "holds Railway's login token"},
		{Path: ".supabase/access-token", Anchor: Home, Kind: Credential, Reason: "holds Supabase's access token"},
		{Path: ".config/stripe/config.toml", Anchor: Home, Kind: Credential, Reason: "holds Stripe CLI's API keys"},
		{Path: ".twilio-cli/config.json", Anchor: Home, Kind: Credential, Reason: "holds Twilio CLI's API keys"},
		{Path: ".config/ngrok/ngrok.yml", Anchor: Home, Kind: Credential, Reason: "holds ngrok's auth token"},
		{Path: ".ngrok2/ngrok.yml", Anchor: Home, Kind: Credential, Reason: "holds ngrok's auth token"},
		{Path: "Library/Application Support/ngrok/ngrok.yml", Anchor: Home, Kind: Credential, Reason: "holds ngrok's auth token"},
		{Path: ".config/configstore/", Anchor: Home, Kind: Credential, Reason: "holds the logins of CLIs that keep their settings in configstore (Firebase, Snyk)"},
		{Path: ".expo/state.json", Anchor: Home, Kind: Credential, Reason: "holds Expo's login session"},
		{Path: ".sentryclirc", Anchor: Home, Kind: Credential, Reason: "holds sentry-cli's auth token"},
		{Path: ".mcp-auth/", Anchor: Home, Kind: Credential, Reason: "holds remote MCP servers' OAuth tokens (mcp-remote)"},
		{Path: ".databrickscfg", Anchor: Home, Kind: Credential, Reason: "holds Databricks tokens"},
		{Path: ".snowsql/config", Anchor: Home, Kind: Credential, Reason: "holds Snowflake passwords (SnowSQL)"},
		{Path: ".snowflake/connections.toml", Anchor: Home, Kind: Credential, Reason: "holds Snowflake connections' passwords"},
		{Path: ".snowflake/config.toml", Anchor: Home, Kind: Credential, Reason: "holds Snowflake connections' passwords"},
		{Path: ".dbt/profiles.yml", Anchor: Home, Kind: Credential, Reason: "holds dbt's warehouse passwords"},
		{Path: ".kaggle/kaggle.json", Anchor: Home, Kind: Credential, Reason: "holds Kaggle's API key"},
		{Path: ".config/kaggle/kaggle.json", Anchor: Home, Kind: Credential, Reason: "holds Kaggle's API key"},
		{Path: ".cache/huggingface/token", Anchor: Home, Kind: Credential, Reason: "holds Hugging Face's access token"},
		{Path: ".cache/huggingface/stored_tokens", Anchor: Home, Kind: Credential, Reason: "holds Hugging Face's access tokens"},
		{Path: ".huggingface/token", Anchor: Home, Kind: Credential, Reason: "holds Hugging Face's access token"},
		{Path: ".sfdx/", Anchor: Home, Kind: Credential, Reason: "holds Salesforce CLI's org logins"},
		{Path: ".wakatime.cfg", Anchor: Home, Kind: Credential, Reason: "holds WakaTime's API key"},
		{Path: ".circleci/cli.yml", Anchor: Home, Kind: Credential, Reason: "holds CircleCI CLI's token"},
		{Path: ".travis/config.yml", Anchor: Home, Kind: Credential, Reason: "holds Travis CI's access token"},
		{Path: ".jfrog/jfrog-cli.conf*", Anchor: Home, Kind: Credential, Reason: pkgToken + " (JFrog)"},
		{Path: ".terraformrc", Anchor: Home, Kind: Credential, Reason: cloudCreds + " (Terraform CLI's credentials blocks)"},
		{Path: ".nuget/NuGet/NuGet.Config", Anchor: Home, Kind: Credential, Reason: pkgToken + " (NuGet)"},
		{Path: ".composer/auth.json", Anchor: Home, Kind: Credential, Reason: pkgToken + " (Composer)"},
		{Path: ".config/composer/auth.json", Anchor: Home, Kind: Credential, Reason: pkgToken + " (Composer)"},
		{Path: ".config/hut/config", Anchor: Home, Kind: Credential, Reason: gitCreds + " (sourcehut)"},
		{Path: ".config/tea/config.yml", Anchor: Home, Kind: Credential, Reason: gitCreds + " (Gitea)"},
		{Path: ".config/sops/age/keys.txt", Anchor: Home, Kind: Credential, Reason: "holds age private keys (sops)"},
		{Path: "Library/Application Support/sops/age/keys.txt", Anchor: Home, Kind: Credential, Reason: "holds age private keys (sops)"},
		{Path: ".config/Cursor/User/globalStorage/state.vscdb*", Anchor: Home, Kind: Credential, Reason: "holds Cursor's login tokens"},
		{Path: "Library/Application Support/Cursor/User/globalStorage/state.vscdb*", Anchor: Home, Kind: Credential, Reason: "holds Cursor's login tokens"},
		{Path: ".appstoreconnect/private_keys/", Anchor: Home, Kind: Credential, Reason: "holds App Store Connect API keys"},
		{Path: "AuthKey_*.p8", Anchor: Anywhere, Kind: Credential, Reason: "is an App Store Connect or Apple push API key"},
		{Path: ".fastlane/spaceship/", Anchor: Home, Kind: Credential, Reason: "holds fastlane's Apple ID sessions"},
		{Path: "*firebase-adminsdk*.json", Anchor: Anywhere, Kind: Credential, Reason: cloudCreds + " (a Firebase service account key)"},
		{Path: "*service-account*.json", Anchor: Anywhere, Kind: Credential, Reason: cloudCreds + " (a service account key)"},
		{Path: "*service_account*.json", Anchor: Anywhere, Kind: Credential, Reason: cloudCreds + " (a service account key)"},
		{Path: "*serviceaccount*.json", Anchor: Anywhere, Kind: Credential, Reason: cloudCreds + " (a service account key)"},
		{Path: "config/master.key", Anchor: Anywhere, Kind: Credential, Reason: "is a Rails master key, which decrypts the app's credentials"},
		{Path: "config/credentials/production.key", Anchor: Anywhere, Kind: Credential, Reason: "is a Rails credentials key, which decrypts the app's credentials"},
		{Path: "config/credentials/staging.key", Anchor: Anywhere, Kind: Credential, Reason: "is a Rails credentials key, which decrypts the app's credentials"},
		{Path: "config/credentials/development.key", Anchor: Anywhere, Kind: Credential, Reason: "is a Rails credentials key, which decrypts the app's credentials"},
		{Path: ".vault_pass*", Anchor: Anywhere, Kind: Credential, Reason: "holds an Ansible Vault password"},
		{Path: ".vault-pass*", Anchor: Anywhere, Kind: Credential, Reason: "holds an Ansible Vault password"},
		{Path: ".local/share/atuin/", Anchor: Home, Kind: Credential, Reason: history + " (atuin, and its sync key)"},

		// The machine's own secrets and the ones a process or container is given.
		{Path: "etc/shadow", Anchor: Root, Kind: Credential, Reason: "holds the machine's password hashes"},
		{Path: "etc/shadow-", Anchor: Root, Kind: Credential, Reason: "holds the machine's password hashes"},
		{Path: "etc/gshadow", Anchor: Root, Kind: Credential, Reason: "holds the machine's group password hashes"},
		{Path: "etc/master.passwd", Anchor: Root, Kind: Credential, Reason: "holds the machine's password hashes"},
		{Path: "etc/ssl/private/", Anchor: Root, Kind: Credential, Reason: "holds TLS private keys"},
		{Path: "etc/pki/tls/private/", Anchor: Root, Kind: Credential, Reason: "holds TLS private keys"},
		{Path: "etc/kubernetes/admin.conf", Anchor: Root, Kind: Credential, Reason: cluster},
		{Path: "etc/rancher/k3s/k3s.yaml", Anchor: Root, Kind: Credential, Reason: cluster},
		{Path: "proc/*/environ", Anchor: Root, Kind: Credential, Reason: "is a process's environment (tokens and passwords)"},
		{Path: "proc/*/mem", Anchor: Root, Kind: Credential, Reason: "is a process's memory (the secrets it holds)"},
		{Path: "proc/kcore", Anchor: Root, Kind: Credential, Reason: "is the machine's memory"},
		{Path: "dev/mem", Anchor: Root, Kind: Credential, Reason: "is the machine's memory"},
		{Path: "dev/kmem", Anchor: Root, Kind: Credential, Reason: "is the kernel's memory"},
		{Path: "dev/sd*", Anchor: Root, Kind: Credential, Reason: "is a raw disk (every file on it, secrets included)"},
		{Path: "dev/hd*", Anchor: Root, Kind: Credential, Reason: "is a raw disk (every file on it, secrets included)"},
		{Path: "dev/vd*", Anchor: Root, Kind: Credential, Reason: "is a raw disk (every file on it, secrets included)"},
		{Path: "dev/xvd*", Anchor: Root, Kind: Credential, Reason: "is a raw disk (every file on it, secrets included)"},
		{Path: "dev/nvme*", Anchor: Root, Kind: Credential, Reason: "is a raw disk (every file on it, secrets included)"},
		{Path: "dev/mmcblk*", Anchor: Root, Kind: Credential, Reason: "is a raw disk (every file on it, secrets included)"},
		{Path: "dev/dm-*", Anchor: Root, Kind: Credential, Reason: "is a raw disk (every file on it, secrets included)"},
		{Path: "dev/md*", Anchor: Root, Kind: Credential, Reason: "is a raw disk (every file on it, secrets included)"},
		{Path: "dev/loop*", Anchor: Root, Kind: Credential, Reason: "is a raw disk (every file on it, secrets included)"},
		{Path: "dev/mapper/", Anchor: Root, Kind: Credential, Reason: "is a raw disk (every file on it, secrets included)"},
		{Path: "dev/disk/", Anchor: Root, Kind: Credential, Reason: "is a raw disk (every file on it, secrets included)"},
		{Path: "var/run/secrets/", Anchor: Root, Kind: Credential, Reason: "holds the secrets mounted into a container (service account tokens)"},
		{Path: "run/secrets/", Anchor: Root, Kind: Credential, Reason: "holds the secrets mounted into a container"},
		{Path: ".pgpass", Anchor: Anywhere, Kind: Credential, Reason: "holds database passwords (PostgreSQL)"},
		{Path: ".android/adbkey", Anchor: Home, Kind: Credential, Reason: "holds adb's private key, which every device that trusted it accepts"},
		{Path: ".my.cnf", Anchor: Home, Kind: Credential, Reason: "holds database passwords (MySQL)"},

		// AI agents' own login tokens (before their directories, which are
		// agent configuration).
		{Path: ".claude/.credentials.json", Anchor: Home, Kind: Credential, Reason: "holds Claude Code's login tokens"},
		{Path: ".codex/auth.json", Anchor: Home, Kind: Credential, Reason: "holds Codex's API key or login tokens"},
		{Path: ".gemini/oauth_creds.json", Anchor: Home, Kind: Credential, Reason: "holds Gemini CLI's login tokens"},

		// GnuPG, password stores, keychains.
		{Path: ".gnupg/", Anchor: Home, Kind: Credential, Reason: "holds GnuPG private keys"},
		{Path: ".password-store/", Anchor: Home, Kind: Credential, Reason: "is a password store (pass)"},
		{Path: ".local/share/keyrings/", Anchor: Home, Kind: Credential, Reason: keychain + " (GNOME keyring)"},
		{Path: ".local/share/kwalletd/", Anchor: Home, Kind: Credential, Reason: keychain + " (KWallet)"},
		{Path: "Library/Keychains/", Anchor: Anywhere, Kind: Credential, Reason: keychain + " (macOS)"},
		{Path: "*.kdbx", Anchor: Anywhere, Kind: Credential, Reason: "is a password database (KeePass)"},
		{Path: "*.tfstate", Anchor: Anywhere, Kind: Credential, Reason: tfState},
		{Path: "*.tfstate.backup", Anchor: Anywhere, Kind: Credential, Reason: tfState},
		{Path: ".config/1Password/", Anchor: Home, Kind: Credential, Reason: keychain + " (1Password)"},
		{Path: ".config/Bitwarden/", Anchor: Home, Kind: Credential, Reason: keychain + " (Bitwarden)"},
		{Path: ".config/op/", Anchor: Home, Kind: Credential, Reason: keychain + " (1Password CLI sessions)"},

		// Browser profiles.
		{Path: ".mozilla/", Anchor: Home, Kind: Credential, Reason: browser},
		{Path: ".config/google-chrome/", Anchor: Home, Kind: Credential, Reason: browser},
		{Path: ".config/chromium/", Anchor: Home, Kind: Credential, Reason: browser},
		{Path: ".config/BraveSoftware/", Anchor: Home, Kind: Credential, Reason: browser},
		{Path: ".config/microsoft-edge/", Anchor: Home, Kind: Credential, Reason: browser},
		{Path: ".config/vivaldi/", Anchor: Home, Kind: Credential, Reason: browser},
		{Path: "snap/firefox/", Anchor: Home, Kind: Credential, Reason: browser},
		{Path: "Library/Application Support/Google/Chrome/", Anchor: Home, Kind: Credential, Reason: browser},
		{Path: "Library/Application Support/Firefox/", Anchor: Home, Kind: Credential, Reason: browser},
		{Path: "Library/Cookies/", Anchor: Home, Kind: Credential, Reason: browser},
		{Path: "Library/Safari/", Anchor: Home, Kind: Credential, Reason: browser},

		// Shell and REPL history.
		{Path: ".bash_history", Anchor: Home, Kind: Credential, Reason: history},
		{Path: ".zsh_history", Anchor: Home, Kind: Credential, Reason: history},
		{Path: ".zhistory", Anchor: Home, Kind: Credential, Reason: history},
		{Path: ".history", Anchor: Home, Kind: Credential, Reason: history},
		{Path: ".sh_history", Anchor: Home, Kind: Credential, Reason: history},
		{Path: ".local/share/fish/fish_history", Anchor: Home, Kind: Credential, Reason: history},
		{Path: ".python_history", Anchor: Home, Kind: Credential, Reason: history},
		{Path: ".node_repl_history", Anchor: Home, Kind: Credential, Reason: history},
		{Path: ".psql_history", Anchor: Home, Kind: Credential, Reason: history},
		{Path: ".mysql_history", Anchor: Home, Kind: Credential, Reason: history},
		{Path: ".sqlite_history", Anchor: Home, Kind: Credential, Reason: history},
		{Path: ".rediscli_history", Anchor: Home, Kind: Credential, Reason: history},
		{Path: ".viminfo", Anchor: Home, Kind: Credential, Reason: history + " (vim's command and search history)"},
		{Path: ".lesshst", Anchor: Home, Kind: Credential, Reason: history + " (less's search history)"},

		// Agent and tool configuration (writing it is tampering).
		{Path: ".claude/", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (Claude Code)"},
		{Path: ".claude.json", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (Claude Code)"},
		{Path: ".codex/", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (Codex)"},
		{Path: ".gemini/", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (Gemini CLI)"},
		{Path: ".cursor/", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (Cursor)"},
		{Path: ".windsurf/", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (Windsurf)"},
		{Path: ".codeium/", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (Codeium)"},
		{Path: ".continue/", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (Continue)"},
		{Path: ".aider.conf.yml", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (aider)"},
		{Path: ".opencode/", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (opencode)"},
		{Path: "opencode.json", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (opencode)"},
		{Path: "opencode.jsonc", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (opencode)"},
		{Path: ".config/opencode/", Anchor: Home, Kind: AgentConfig, Reason: agentConfig + " (opencode)"},
		{Path: ".roo/", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (Roo Code)"},
		{Path: ".amazonq/", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (Amazon Q)"},
		{Path: ".kiro/", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (Kiro: its MCP servers, its hooks that act on file events, its steering)"},
		{Path: ".qwen/", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (Qwen Code)"},
		{Path: "crush.json", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (Crush)"},
		{Path: ".crush.json", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (Crush)"},
		{Path: ".config/crush/", Anchor: Home, Kind: AgentConfig, Reason: agentConfig + " (Crush)"},
		{Path: ".config/amp/", Anchor: Home, Kind: AgentConfig, Reason: agentConfig + " (Amp)"},
		{Path: ".factory/", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (Factory's droid)"},
		// OpenHands runs the repository's .openhands/setup.sh at the
		// start of every session, and follows its microagents.
		{Path: ".openhands/", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (OpenHands: its setup script runs at every session's start)"},
		{Path: ".copilot/", Anchor: Home, Kind: AgentConfig, Reason: agentConfig + " (GitHub Copilot CLI)"},
		{Path: ".zed/settings.json", Anchor: Anywhere, Kind: AgentConfig, Reason: agentConfig + " (Zed's agent and context servers)"},
		{Path: ".zed/tasks.json", Anchor: Anywhere, Kind: AgentConfig, Reason: editorTasks},
		{Path: ".mcp.json", Anchor: Anywhere, Kind: AgentConfig, Reason: "declares the MCP servers an agent starts"},
		{Path: ".vscode/tasks.json", Anchor: Anywhere, Kind: AgentConfig, Reason: editorTasks},
		{Path: ".vscode/settings.json", Anchor: Anywhere, Kind: AgentConfig, Reason: editorTasks},
		{Path: ".vscode/launch.json", Anchor: Anywhere, Kind: AgentConfig, Reason: editorTasks},
		{Path: ".vscode/mcp.json", Anchor: Anywhere, Kind: AgentConfig, Reason: "declares the MCP servers an agent starts"},
		{Path: ".git/config", Anchor: Anywhere, Kind: AgentConfig, Reason: "is git configuration, which lets every later git command run code (core.fsmonitor, core.pager, aliases, filters)"},
		{Path: ".hg/hgrc", Anchor: Anywhere, Kind: AgentConfig, Reason: "is Mercurial's repository configuration, whose hooks and aliases run code in every later hg command"},
		{Path: ".jj/repo/config.toml", Anchor: Anywhere, Kind: AgentConfig, Reason: "is Jujutsu's repository configuration, whose aliases, pager and editor run code in every later jj command"},
		{Path: ".git/hooks/", Anchor: Anywhere, Kind: AgentConfig, Reason: "holds git hooks, which run on every commit, checkout and push"},
		{Path: ".envrc", Anchor: Anywhere, Kind: AgentConfig, Reason: "is run by direnv whenever a shell enters the directory"},
		// Jobs, services and programs that run later by themselves (writing
		// them is persistence).
		//
		// A project's own files that a routine later command or session
		// obeys: package managers' settings, hook managers, CI pipelines,
		// the dev container, agent instruction files. Written in lower case
		// where the real name has capitals ("claude.md"): Lookup folds a
		// path that matches nothing, so CLAUDE.md and Claude.md both match.
		// Build files (Makefile, package.json scripts) are not here: they
		// are the project's code, run only when a build is asked for.
		{Path: ".npmrc", Anchor: Anywhere, Kind: Autostart, Reason: npmRuns},
		{Path: ".yarnrc", Anchor: Anywhere, Kind: Autostart, Reason: yarnRuns},
		{Path: ".yarnrc.yml", Anchor: Anywhere, Kind: Autostart, Reason: yarnRuns},
		{Path: ".yarn/plugins/", Anchor: Anywhere, Kind: Autostart, Reason: yarnRuns},
		{Path: ".pnpmfile.cjs", Anchor: Anywhere, Kind: Autostart, Reason: "is pnpm's hook file, which runs in every later pnpm install"},
		{Path: "bunfig.toml", Anchor: Anywhere, Kind: Autostart, Reason: "configures bun: its preload scripts run in every later bun run and bun test"},
		{Path: ".cargo/config.toml", Anchor: Anywhere, Kind: Autostart, Reason: cargoRuns},
		{Path: ".cargo/config", Anchor: Anywhere, Kind: Autostart, Reason: cargoRuns},
		{Path: ".husky/", Anchor: Anywhere, Kind: Autostart, Reason: hookManager + " (husky)"},
		{Path: ".pre-commit-config.yaml", Anchor: Anywhere, Kind: Autostart, Reason: hookManager + " (pre-commit)"},
		{Path: "lefthook.yml", Anchor: Anywhere, Kind: Autostart, Reason: hookManager + " (lefthook)"},
		{Path: ".lefthook.yml", Anchor: Anywhere, Kind: Autostart, Reason: hookManager + " (lefthook)"},
		{Path: ".github/workflows/", Anchor: Anywhere, Kind: Autostart, Reason: ciRuns + " (GitHub Actions)"},
		{Path: ".github/actions/", Anchor: Anywhere, Kind: Autostart, Reason: ciRuns + " (a GitHub Actions step)"},
		{Path: ".gitlab-ci.yml", Anchor: Anywhere, Kind: Autostart, Reason: ciRuns + " (GitLab)"},
		{Path: ".circleci/", Anchor: Anywhere, Kind: Autostart, Reason: ciRuns + " (CircleCI)"},
		{Path: ".travis.yml", Anchor: Anywhere, Kind: Autostart, Reason: ciRuns + " (Travis CI)"},
		{Path: "azure-pipelines.yml", Anchor: Anywhere, Kind: Autostart, Reason: ciRuns + " (Azure Pipelines)"},
		{Path: "bitbucket-pipelines.yml", Anchor: Anywhere, Kind: Autostart, Reason: ciRuns + " (Bitbucket)"},
		{Path: "jenkinsfile", Anchor: Anywhere, Kind: Autostart, Reason: ciRuns + " (Jenkins)"},
		{Path: ".buildkite/", Anchor: Anywhere, Kind: Autostart, Reason: ciRuns + " (Buildkite)"},
		{Path: ".devcontainer/", Anchor: Anywhere, Kind: Autostart, Reason: devcontRuns},
		{Path: ".devcontainer.json", Anchor: Anywhere, Kind: Autostart, Reason: devcontRuns},
		{Path: "claude.md", Anchor: Anywhere, Kind: Autostart, Reason: agentRules + " (Claude Code)"},
		{Path: "claude.local.md", Anchor: Anywhere, Kind: Autostart, Reason: agentRules + " (Claude Code)"},
		{Path: "agents.md", Anchor: Anywhere, Kind: Autostart, Reason: agentRules + " (Codex and others)"},
		{Path: "agent.md", Anchor: Anywhere, Kind: Autostart, Reason: agentRules},
		{Path: "gemini.md", Anchor: Anywhere, Kind: Autostart, Reason: agentRules + " (Gemini CLI)"},
		{Path: ".cursorrules", Anchor: Anywhere, Kind: Autostart, Reason: agentRules + " (Cursor)"},
		{Path: ".windsurfrules", Anchor: Anywhere, Kind: Autostart, Reason: agentRules + " (Windsurf)"},
		{Path: ".clinerules", Anchor: Anywhere, Kind: Autostart, Reason: agentRules + " (Cline)"},
		{Path: ".clinerules/", Anchor: Anywhere, Kind: Autostart, Reason: agentRules + " (Cline)"},
		{Path: ".github/copilot-instructions.md", Anchor: Anywhere, Kind: Autostart, Reason: agentRules + " (GitHub Copilot)"},
		{Path: ".github/instructions/", Anchor: Anywhere, Kind: Autostart, Reason: agentRules + " (GitHub Copilot)"},
		{Path: "qwen.md", Anchor: Anywhere, Kind: Autostart, Reason: agentRules + " (Qwen Code)"},
		{Path: ".goosehints", Anchor: Anywhere, Kind: Autostart, Reason: agentRules + " (Goose)"},
		{Path: ".junie/", Anchor: Anywhere, Kind: Autostart, Reason: agentRules + " (JetBrains Junie)"},
		{Path: ".augment-guidelines", Anchor: Anywhere, Kind: Autostart, Reason: agentRules + " (Augment)"},
		{Path: ".rules", Anchor: Anywhere, Kind: Autostart, Reason: agentRules + " (Zed)"},
		// Programs' start-up files in the home directory (the shell's are
		// critical writes, shell/risks.go).
		{Path: ".vimrc", Anchor: Home, Kind: Autostart, Reason: editorRC + " (vim)"},
		{Path: ".gvimrc", Anchor: Home, Kind: Autostart, Reason: editorRC + " (vim)"},
		{Path: ".exrc", Anchor: Home, Kind: Autostart, Reason: editorRC + " (vi)"},
		{Path: ".vim/plugin/", Anchor: Home, Kind: Autostart, Reason: editorRC + " (vim)"},
		{Path: ".vim/autoload/", Anchor: Home, Kind: Autostart, Reason: editorRC + " (vim)"},
		{Path: ".config/nvim/", Anchor: Home, Kind: Autostart, Reason: editorRC + " (neovim)"},
		{Path: ".emacs", Anchor: Home, Kind: Autostart, Reason: editorRC + " (emacs)"},
		{Path: ".emacs.d/init.el", Anchor: Home, Kind: Autostart, Reason: editorRC + " (emacs)"},
		{Path: ".config/emacs/init.el", Anchor: Home, Kind: Autostart, Reason: editorRC + " (emacs)"},
		{Path: ".lessfilter", Anchor: Home, Kind: Autostart, Reason: "is run by lesspipe on every file less opens"},
		{Path: ".tmux.conf", Anchor: Home, Kind: Autostart, Reason: editorRC + " (tmux: run-shell, if-shell)"},
		{Path: ".config/tmux/tmux.conf", Anchor: Home, Kind: Autostart, Reason: editorRC + " (tmux: run-shell, if-shell)"},
		{Path: ".screenrc", Anchor: Home, Kind: Autostart, Reason: editorRC + " (screen)"},
		{Path: ".gdbinit", Anchor: Home, Kind: Autostart, Reason: editorRC + " (gdb)"},
		{Path: ".psqlrc", Anchor: Home, Kind: Autostart, Reason: editorRC + " (psql: \\! runs a shell command)"},
		{Path: ".irbrc", Anchor: Home, Kind: Autostart, Reason: editorRC + " (irb)"},
		{Path: ".pryrc", Anchor: Home, Kind: Autostart, Reason: editorRC + " (pry)"},
		{Path: ".rprofile", Anchor: Anywhere, Kind: Autostart, Reason: "runs every time R starts in that directory"},
		{Path: ".bash_aliases", Anchor: Home, Kind: Autostart, Reason: "is read by every interactive bash (the usual .bashrc sources it)"},
		{Path: ".config/direnv/", Anchor: Home, Kind: Autostart, Reason: "configures direnv, whose direnvrc runs whenever a shell enters a directory"},
		{Path: "etc/crontab", Anchor: Root, Kind: Autostart, Reason: autostart + " (cron)"},
		{Path: "etc/cron.d/", Anchor: Root, Kind: Autostart, Reason: autostart + " (cron)"},
		{Path: "etc/cron.hourly/", Anchor: Root, Kind: Autostart, Reason: autostart + " (cron)"},
		{Path: "etc/cron.daily/", Anchor: Root, Kind: Autostart, Reason: autostart + " (cron)"},
		{Path: "etc/cron.weekly/", Anchor: Root, Kind: Autostart, Reason: autostart + " (cron)"},
		{Path: "etc/cron.monthly/", Anchor: Root, Kind: Autostart, Reason: autostart + " (cron)"},
		{Path: "var/spool/cron/", Anchor: Root, Kind: Autostart, Reason: autostart + " (cron)"},
		{Path: "etc/anacrontab", Anchor: Root, Kind: Autostart, Reason: autostart + " (anacron)"},
		{Path: "etc/systemd/", Anchor: Root, Kind: Autostart, Reason: autostart + " (systemd units)"},
		{Path: "lib/systemd/system/", Anchor: Root, Kind: Autostart, Reason: autostart + " (systemd units)"},
		{Path: "usr/lib/systemd/", Anchor: Root, Kind: Autostart, Reason: autostart + " (systemd units)"},
		{Path: "etc/init.d/", Anchor: Root, Kind: Autostart, Reason: autostart + " (init scripts)"},
		{Path: "etc/rc.local", Anchor: Root, Kind: Autostart, Reason: autostart + " (runs at boot)"},
		{Path: "etc/xdg/autostart/", Anchor: Root, Kind: Autostart, Reason: autostart + " (desktop autostart)"},
		{Path: "etc/update-motd.d/", Anchor: Root, Kind: Autostart, Reason: autostart + " (runs at every login)"},
		{Path: "etc/profile.d/", Anchor: Root, Kind: Autostart, Reason: autostart + " (runs in every login shell)"},
		{Path: "Library/LaunchAgents/", Anchor: Root, Kind: Autostart, Reason: autostart + " (launchd)"},
		{Path: "Library/LaunchDaemons/", Anchor: Root, Kind: Autostart, Reason: autostart + " (launchd)"},
		{Path: "Library/LaunchAgents/", Anchor: Home, Kind: Autostart, Reason: autostart + " (launchd)"},
		{Path: ".config/systemd/user/", Anchor: Home, Kind: Autostart, Reason: autostart + " (systemd user units)"},
		{Path: ".config/autostart/", Anchor: Home, Kind: Autostart, Reason: autostart + " (desktop autostart)"},
		{Path: ".xinitrc", Anchor: Home, Kind: Autostart, Reason: autostart + " (runs when X starts)"},
		{Path: ".xprofile", Anchor: Home, Kind: Autostart, Reason: autostart + " (runs at every graphical login)"},
		{Path: ".xsession", Anchor: Home, Kind: Autostart, Reason: autostart + " (runs at every graphical login)"},
		{Path: ".xsessionrc", Anchor: Home, Kind: Autostart, Reason: autostart + " (runs at every graphical login)"},
		{Path: ".pam_environment", Anchor: Home, Kind: Autostart, Reason: autostart + " (sets every login's environment, LD_PRELOAD included)"},
		{Path: ".pip/pip.conf", Anchor: Home, Kind: Autostart, Reason: pkgIndex + " pip install"},
		{Path: ".config/pip/pip.conf", Anchor: Home, Kind: Autostart, Reason: pkgIndex + " pip install"},
		{Path: ".pydistutils.cfg", Anchor: Home, Kind: Autostart, Reason: pkgIndex + " setuptools install"},
		{Path: ".config/uv/uv.toml", Anchor: Home, Kind: Autostart, Reason: pkgIndex + " uv install"},
		{Path: ".gemrc", Anchor: Home, Kind: Autostart, Reason: pkgIndex + " gem install"},
		{Path: ".bundle/config", Anchor: Home, Kind: Autostart, Reason: pkgIndex + " bundle install"},
		{Path: ".condarc", Anchor: Home, Kind: Autostart, Reason: pkgIndex + " conda install"},
		{Path: ".gradle/init.d/", Anchor: Home, Kind: Autostart, Reason: autostart + " (runs in every Gradle build)"},
		{Path: ".gradle/init.gradle", Anchor: Home, Kind: Autostart, Reason: autostart + " (runs in every Gradle build)"},
		{Path: "site-packages/sitecustomize.py", Anchor: Anywhere, Kind: Autostart, Reason: autostart + " (runs at every start of that Python)"},
		{Path: "site-packages/usercustomize.py", Anchor: Anywhere, Kind: Autostart, Reason: autostart + " (runs at every start of that Python)"},
		{Path: "site-packages/*.pth", Anchor: Anywhere, Kind: Autostart, Reason: autostart + " (its import lines run at every start of that Python)"},
		{Path: ".local/bin/", Anchor: Home, Kind: Autostart, Reason: onUserPath},
		{Path: "bin/", Anchor: Home, Kind: Autostart, Reason: onUserPath},
		{Path: "usr/local/bin/", Anchor: Root, Kind: Autostart, Reason: onPath},
		{Path: "usr/local/sbin/", Anchor: Root, Kind: Autostart, Reason: onPath},
		{Path: "usr/bin/", Anchor: Root, Kind: Autostart, Reason: onPath},
		{Path: "usr/sbin/", Anchor: Root, Kind: Autostart, Reason: onPath},
		{Path: "bin/", Anchor: Root, Kind: Autostart, Reason: onPath},
		{Path: "sbin/", Anchor: Root, Kind: Autostart, Reason: onPath},
		{Path: "lib/", Anchor: Root, Kind: Autostart, Reason: sharedLibs},
		{Path: "lib64/", Anchor: Root, Kind: Autostart, Reason: sharedLibs},
		{Path: "usr/lib/", Anchor: Root, Kind: Autostart, Reason: sharedLibs},
		{Path: "usr/lib64/", Anchor: Root, Kind: Autostart, Reason: sharedLibs},
		{Path: "usr/local/lib/", Anchor: Root, Kind: Autostart, Reason: sharedLibs},
		{Path: "boot/", Anchor: Root, Kind: Autostart, Reason: "holds the kernel and the boot loader, which run at the next boot"},

		// The machine's security settings (writing them is privilege
		// escalation) and its logs (overwriting them is destructive).
		{Path: "proc/sys/", Anchor: Root, Kind: SecuritySetting, Reason: "holds the kernel's live settings"},
		{Path: "sys/kernel/", Anchor: Root, Kind: SecuritySetting, Reason: "holds the kernel's live settings"},
		{Path: "etc/sysctl.conf", Anchor: Root, Kind: SecuritySetting, Reason: "holds the kernel's settings at boot"},
		{Path: "etc/sysctl.d/", Anchor: Root, Kind: SecuritySetting, Reason: "holds the kernel's settings at boot"},
		{Path: "etc/modprobe.d/", Anchor: Root, Kind: SecuritySetting, Reason: "says which kernel modules load"},
		{Path: "etc/pam.d/", Anchor: Root, Kind: SecuritySetting, Reason: "says how users log in (PAM)"},
		{Path: "etc/security/", Anchor: Root, Kind: SecuritySetting, Reason: "holds login and access limits"},
		{Path: "etc/ssh/sshd_config", Anchor: Root, Kind: SecuritySetting, Reason: "says who may log in over SSH"},
		{Path: "etc/ssh/sshd_config.d/", Anchor: Root, Kind: SecuritySetting, Reason: "says who may log in over SSH"},
		{Path: "etc/apparmor.d/", Anchor: Root, Kind: SecuritySetting, Reason: "holds the AppArmor profiles"},
		{Path: "etc/selinux/", Anchor: Root, Kind: SecuritySetting, Reason: "holds the SELinux settings"},
		{Path: "etc/hosts", Anchor: Root, Kind: SecuritySetting, Reason: resolves},
		{Path: "etc/resolv.conf", Anchor: Root, Kind: SecuritySetting, Reason: resolves},
		{Path: "etc/nsswitch.conf", Anchor: Root, Kind: SecuritySetting, Reason: resolves},
		{Path: "etc/ld.so.conf", Anchor: Root, Kind: SecuritySetting, Reason: libraries},
		{Path: "etc/ld.so.conf.d/", Anchor: Root, Kind: SecuritySetting, Reason: libraries},
		{Path: "etc/modules", Anchor: Root, Kind: SecuritySetting, Reason: "says which kernel modules load"},
		{Path: "etc/modules-load.d/", Anchor: Root, Kind: SecuritySetting, Reason: "says which kernel modules load"},
		{Path: "etc/fstab", Anchor: Root, Kind: SecuritySetting, Reason: "says which file systems mount at boot, and with which rights"},
		{Path: "etc/apt/sources.list", Anchor: Root, Kind: SecuritySetting, Reason: sysPackages},
		{Path: "etc/apt/sources.list.d/", Anchor: Root, Kind: SecuritySetting, Reason: sysPackages},
		{Path: "etc/apt/trusted.gpg", Anchor: Root, Kind: SecuritySetting, Reason: sysPackages},
		{Path: "etc/apt/trusted.gpg.d/", Anchor: Root, Kind: SecuritySetting, Reason: sysPackages},
		{Path: "etc/apt/keyrings/", Anchor: Root, Kind: SecuritySetting, Reason: sysPackages},
		{Path: "etc/apt/apt.conf.d/", Anchor: Root, Kind: SecuritySetting, Reason: "configures apt, whose hooks run a program as root in every later apt command"},
		{Path: "etc/yum.repos.d/", Anchor: Root, Kind: SecuritySetting, Reason: sysPackages},
		{Path: "etc/zypp/repos.d/", Anchor: Root, Kind: SecuritySetting, Reason: sysPackages},
		{Path: "etc/pacman.conf", Anchor: Root, Kind: SecuritySetting, Reason: sysPackages},
		{Path: "etc/pacman.d/", Anchor: Root, Kind: SecuritySetting, Reason: sysPackages},
		{Path: "etc/apk/repositories", Anchor: Root, Kind: SecuritySetting, Reason: sysPackages},
		{Path: "etc/pip.conf", Anchor: Root, Kind: SecuritySetting, Reason: pkgIndex + " pip install on the machine"},
		{Path: "var/log/", Anchor: Root, Kind: AuditLog, Reason: "is the machine's log, the record of what ran"},

		{Path: ".config/toolgate/", Anchor: Home, Kind: AgentConfig, Reason: "is toolgate's own configuration"},
		{Path: ".local/share/toolgate/", Anchor: Home, Kind: AgentConfig, Reason: "is toolgate's own data (its store and tokens)"},
	}
}

// table returns the compiled index of entries.
func table() *index { return &tableIndex }

// index is the list compiled for Lookup: each entry's path split once, and
// entries indexed by their first element so a lookup tries only the few
// that can match.
type index struct {
	list     []compiled
	home     keyTable // Home entries by literal first element
	root     keyTable // Root entries by literal first element
	anywhere keyTable // Anywhere entries by literal first element
	globbed  []int    // Anywhere entries whose first element is a pattern
}

// keyTable maps a first path element to the indices of the entries that
// start with it, ascending. It is an open-addressing hash table (linear
// probing, at most half full) rather than a map so that the index can be
// Go data the linker lays out, not built in every process.
type keyTable []keySlot

type keySlot struct {
	key string
	ids []int // nil: the slot is empty
}

// get returns the entries filed under key, or nil.
func (t keyTable) get(key string) []int {
	if len(t) == 0 {
		return nil
	}
	mask := uint32(len(t) - 1)
	for h := hashKey(key) & mask; ; h = (h + 1) & mask {
		if s := &t[h]; s.ids == nil || s.key == key {
			return s.ids
		}
	}
}

// hashKey is 32-bit FNV-1a.
func hashKey(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// newKeyTable files m's lists in a table of a power-of-two size at least
// twice its keys, inserting the keys in sorted order so that the layout,
// and so table_data.go, depends on the keys alone.
func newKeyTable(m map[string][]int) keyTable {
	n := 1
	for n < 2*len(m) {
		n *= 2
	}
	t := make(keyTable, n)
	mask := uint32(n - 1)
	for _, k := range slices.Sorted(maps.Keys(m)) {
		h := hashKey(k) & mask
		for t[h].ids != nil {
			h = (h + 1) & mask
		}
		t[h] = keySlot{key: k, ids: m[k]}
	}
	return t
}

// compile builds the index of list: table_data.go is compile(entries())
// as Go source (TestTableData).
func compile(list []Entry) index {
	x := index{list: make([]compiled, len(list))}
	home, root, anywhere := map[string][]int{}, map[string][]int{}, map[string][]int{}
	for i, e := range list {
		c := compiled{Entry: e, elems: strings.Split(strings.TrimSuffix(e.Path, "/"), "/")}
		x.list[i] = c
		first := c.elems[0]
		switch {
		case e.Anchor == Home:
			home[first] = append(home[first], i)
		case e.Anchor == Root:
			root[first] = append(root[first], i)
		case strings.Contains(first, "*"):
			x.globbed = append(x.globbed, i)
		default:
			anywhere[first] = append(anywhere[first], i)
		}
	}
	x.home, x.root, x.anywhere = newKeyTable(home), newKeyTable(root), newKeyTable(anywhere)
	return x
}
