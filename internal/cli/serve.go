package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/integrations/claudecode/hookhttp"
	"github.com/toolgate/toolgate/integrations/confirm"
	"github.com/toolgate/toolgate/integrations/trpc"
	"github.com/toolgate/toolgate/integrations/wsapprovals"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/hookcli"
	"github.com/toolgate/toolgate/internal/wire"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/server"
	"github.com/toolgate/toolgate/server/mount"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/postgres"
	"github.com/toolgate/toolgate/tokens"
	"github.com/toolgate/toolgate/web"
)

func runServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := clibase.NewFlagSet("serve", stderr)
	configFlag := fs.String("config", "", "config file `F` (default $XDG_CONFIG_HOME/toolgate/toolgate.yaml if it exists)")
	var flags serveFlags
	flags.define(fs)
	if err := clibase.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return clibase.UsageErrorf("serve takes no arguments, got %q", fs.Arg(0))
	}
	cfg, config, configPath, err := serveSettings(fs, *configFlag, &flags)
	if err != nil {
		return clibase.BadInput(err)
	}
	logger, err := newLogger(stderr, cfg.LogLevel, cfg.LogFormat)
	if err != nil {
		return clibase.BadInput(err)
	}
	if err := os.MkdirAll(cfg.Data, 0o700); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	st, err := openStore(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer st.Close()
	defaults, err := cfg.defaultRules()
	if err != nil {
		return clibase.BadInput(err)
	}
	opts := append(hookcli.EngineOptions(), policy.WithProtectedPaths(cfg.Data))
	if configPath != "" {
		opts = append(opts, policy.WithProtectedPaths(configPath))
	}
	var configDocs []*policy.Document
	if config != nil {
		configDocs = append(configDocs, config)
	}
	gw, err := wire.New(ctx, wire.Config{
		Store: st, Dir: cfg.Data, DefaultRules: defaults, ConfigDocs: configDocs, PolicyOptions: opts,
		BrokerOptions: []approval.Option{
			approval.WithTTL(cfg.ApprovalTimeout), approval.WithMaxTTL(cfg.MaxApprovalTimeout),
			approval.WithSweepInterval(cfg.SweepInterval), approval.WithLogger(logger),
			approval.WithWorkspaceLimits(cfg.Workspaces, cfg.WorkspacesPerToken), approval.WithMaxPending(cfg.MaxPendingPerSession),
			approval.WithCredentialQuotas(cfg.MaxPendingPerToken, cfg.SessionsPerToken),
		},
	})
	if err != nil {
		return err
	}
	defer gw.Close()
	broker, toks := gw.Broker, gw.Tokens
	stopReaper := broker.SpawnReaper(cfg.SweepInterval)
	defer stopReaper()

	if toks.Len() == 0 {
		token, err := toks.Create("admin", tokens.RoleAdmin)
		switch {
		case toolgate.ErrorCodeOf(err) == toolgate.EConflict:
			// Another node sharing the database created it at the same
			// moment, and printed it.
		case err != nil:
			return fmt.Errorf("create the first admin token: %w", err)
		default:
			fmt.Fprintf(stderr, "\nNo credentials yet: created an admin token. It is shown this once (only its hash is kept):\n\n    export TOOLGATE_TOKEN=%s\n\nCreate others with: toolgate tokens create --role agent|approver|admin --name NAME\n\n", token)
		}
	}

	limits := server.Limits{RatePerSecond: cfg.RateLimit, Burst: cfg.RateBurst, MaxWait: cfg.MaxApprovalTimeout,
		MaxHoldsPerToken: cfg.MaxWaitingPerToken, StoredBytesPerMinute: cfg.StoredBytesPerMinute, BodyTimeout: cfg.BodyTimeout}
	confirmCfg, err := confirmConfig(configPath)
	if err != nil {
		return clibase.BadInput(err)
	}
	cf, err := confirm.New(ctx, broker, confirmCfg, confirm.Options{Logger: logger, AllowedOrigins: cfg.AllowedOrigins})
	if err != nil {
		return fmt.Errorf("seed 004 confirmations: %w", err)
	}
	defer cf.Close(context.Background())
	notifyCfg, err := loadNotifySection(configPath)
	if err != nil {
		return clibase.BadInput(err)
	}
	dispatcher, linkMounts, err := notifiers(notifyCfg, broker, cfg.Data, logger)
	if err != nil {
		return fmt.Errorf("notifiers: %w", err)
	}
	stopNotifiers := runNotifiers(ctx, dispatcher, broker)
	defer stopNotifiers()
	var extraMetrics func(io.Writer)
	if dispatcher != nil {
		extraMetrics = dispatcher.WriteMetrics
	}
	mounts := append(trpc.Mounts(broker, trpc.Config{Logger: logger}), cf.Mounts()...)
	mounts = append(mounts, linkMounts...)
	mounts = append(mounts, hookMount(broker, limits.MaxWait),
		wsapprovals.New(broker, wsapprovals.Options{AllowedOrigins: cfg.AllowedOrigins}).Mount())
	uiOpts := []web.Option{web.WithTokens(toks), web.WithAudit(broker), web.WithLogger(logger),
		web.WithSecureCookies(cfg.TLSCert != "" || cfg.AllowRemote)}
	if ws, ok := st.(store.WebSessions); ok {
		uiOpts = append(uiOpts, web.WithSessionStore(ws)) // approvers stay signed in across restarts
	} else {
		logger.Warn("this store keeps no web sessions: approvers sign in again after a restart")
	}
	ui := web.New(uiOpts...)
	api := gw.API(server.Deps{
		Logger:         logger,
		AllowedOrigins: cfg.AllowedOrigins, PublicMetrics: cfg.PublicMetrics,
		Limits: limits, Mounts: mounts, Authenticate: ui.Authenticate, Metrics: extraMetrics,
		NoFileReads: cfg.NoFileReads,
	})
	handler := http.NewServeMux()
	handler.Handle("/", api) // the API and every mounted protocol
	ui.Register(handler)     // the inbox: GET /, /static/, /ui/ (more specific than "/")
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	scheme := "http"
	if cfg.TLSCert != "" {
		scheme = "https"
	}
	url := scheme + "://" + ln.Addr().String()
	logger.Info("toolgate serving", "url", url, "data", cfg.Data, "version", versionString())
	// The admin commands, the TUI and the hooks find the gateway by this
	// variable; a non-default --addr is otherwise a guess.
	fmt.Fprintf(stderr, "\nThe admin commands, toolgate tui and the hooks find this gateway with:\n\n    export TOOLGATE_URL=%s\n\n", url)
	errc := make(chan error, 1)
	go func() {
		if cfg.TLSCert != "" {
			errc <- srv.ServeTLS(ln, cfg.TLSCert, cfg.TLSKey)
		} else {
			errc <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Shutdown waits for handlers; long-polls and event streams end with
	// their request contexts, which BaseContext does not outlive.
	broker.Close()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// serveFlags are the flags of serve that override settings of the config
// file's server section.
type serveFlags struct {
	addr, data, store           string
	allowRemote, noFileReads    bool
	nodeLease, nodeLeaseRenewal time.Duration
	storeTimeout                time.Duration
}

// define adds the flags to fs.
func (f *serveFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.addr, "addr", "", "listen `address` (default 127.0.0.1:8787)")
	fs.StringVar(&f.data, "data", "", "data `dir`ectory (default $XDG_DATA_HOME/toolgate)")
	fs.StringVar(&f.store, "store", "", "store `URL`: sqlite (default, in the data directory), sqlite:PATH, or postgres://… (several nodes sharing one database)")
	fs.BoolVar(&f.allowRemote, "allow-remote", false, "listen on a non-loopback address without TLS (something else must terminate TLS)")
	fs.BoolVar(&f.noFileReads, "no-file-reads", false, "never read the files write and edit calls name to show old against new (for a gateway on another machine than its agents)")
	fs.DurationVar(&f.nodeLease, "node-lease", postgres.DefaultLease, "with a postgres:// store, how long this node's lease lasts: a write waits at most about this long for a node that died (at most 30s)")
	fs.DurationVar(&f.nodeLeaseRenewal, "node-lease-renewal", postgres.DefaultLeaseRenewal, "with a postgres:// store, how often this node renews its lease (at most half the lease)")
	fs.DurationVar(&f.storeTimeout, "store-timeout", postgres.DefaultOpTimeout, "with a postgres:// store, how long one call of the database may take, connecting included, before the request answers 503 (at most 1m)")
}

// serveSettings layers the server settings: defaults, the config file's
// server section, TOOLGATE_* variables, then the flags that were given.
// It also loads the config file's rules and says which file it read.
func serveSettings(fs *flag.FlagSet, configPath string, flags *serveFlags) (serveConfig, *policy.Document, string, error) {
	cfg := defaultServeConfig()
	if configPath == "" {
		configPath = os.Getenv("TOOLGATE_CONFIG")
	}
	if configPath == "" {
		configPath = hookcli.DefaultConfigFile()
	}
	var doc *policy.Document
	if configPath != "" {
		if err := loadServerSection(configPath, &cfg); err != nil {
			return cfg, nil, "", err
		}
		var err error
		if doc, err = policy.LoadFile(configPath); err != nil {
			return cfg, nil, "", err
		}
	}
	if err := cfg.applyEnv(os.Getenv); err != nil {
		return cfg, nil, "", err
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "addr":
			cfg.Addr = flags.addr
		case "data":
			cfg.Data = flags.data
		case "store":
			cfg.Store = flags.store
		case "allow-remote":
			cfg.AllowRemote = flags.allowRemote
		case "no-file-reads":
			cfg.NoFileReads = flags.noFileReads
		case "node-lease":
			cfg.NodeLease = flags.nodeLease
		case "node-lease-renewal":
			cfg.NodeLeaseRenewal = flags.nodeLeaseRenewal
		case "store-timeout":
			cfg.StoreTimeout = flags.storeTimeout
		}
	})
	if strings.HasPrefix(cfg.Data, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			cfg.Data = filepath.Join(home, cfg.Data[2:])
		}
	}
	return cfg, doc, configPath, cfg.check()
}

// confirmConfig reads seed 004's toolConfirmation section of the config
// file; without a file the seed's defaults apply.
func confirmConfig(path string) (confirm.Config, error) {
	if path == "" {
		return confirm.Config{}, nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return confirm.Config{}, fmt.Errorf("read config: %w", err)
	}
	return confirm.ParseConfig(path, src)
}

// hookMount serves Claude Code's HTTP hooks at POST /hooks/claude-code:
// the same JSON as the command hook, decided by this gateway.
// Each request acts as its caller, so the sessions an agent credential
// opens through the hook are its own, as through POST /v1/calls.
func hookMount(b *approval.Broker, maxWait time.Duration) mount.Route {
	return mount.Route{Method: http.MethodPost, Path: "/hooks/claude-code", Role: tokens.RoleAgent,
		Handler: func(w http.ResponseWriter, r *http.Request, caller tokens.Entry) error {
			hookhttp.NewHandler(claudecode.Hook{Decider: &claudecode.Remote{
				Gate: b.Gate(), Actor: caller.Actor("hook"),
				OnAsk: claudecode.AskPrompt,
			}}, hookhttp.WithMaxWait(maxWait)).ServeHTTP(w, r)
			return nil
		}}
}

// openStore opens the store the settings name.
func openStore(ctx context.Context, cfg serveConfig, logger *slog.Logger) (store.Store, error) {
	url := defaultStore(cfg.Store)
	b, ok := stores(storeOptions{data: cfg.Data, log: logger, lease: cfg.NodeLease, leaseRenewal: cfg.NodeLeaseRenewal, timeout: cfg.StoreTimeout}).Lookup(url)
	if !ok {
		return nil, clibase.UsageErrorf("store %q: want sqlite, sqlite:PATH or postgres://…", cfg.Store)
	}
	return b.Open(ctx, url)
}

func newLogger(w io.Writer, level, format string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("log level %q: want debug, info, warn or error", level)
	}
	opts := &slog.HandlerOptions{Level: l}
	switch format {
	case "text", "":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("log format %q: want text or json", format)
}
