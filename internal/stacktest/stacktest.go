// Package stacktest runs the whole gateway for tests, wired by package
// wire as toolgate serve is: a broker over a SQLite store and a rules
// directory in t.TempDir(), workspace policies, a token store with an
// agent, an approver and an admin token, and the HTTP API on an httptest
// listener.
//
// It is an ordinary package, not a _test.go file, so that the tests of
// several packages can share it; only tests import it, and it must stay
// out of every production import graph.
package stacktest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/internal/wire"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/server"
	"github.com/toolgate/toolgate/server/mount"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/sqlite"
	"github.com/toolgate/toolgate/tokens"
)

// Stack is a running gateway.
type Stack struct {
	T testing.TB
	// Dir is the data directory: the database, the tokens file and,
	// unless Rules says otherwise, the workspaces' rules documents.
	Dir      string
	Store    store.Store
	Rules    store.Rules
	Policies *approval.Workspaces
	Broker   *approval.Broker
	Tokens   *tokens.Store
	Server   *httptest.Server
	// Agent, Approver and Admin are bearer tokens of those roles.
	Agent, Approver, Admin string
	gw                     *wire.Gateway
}

type config struct {
	st         store.Store
	dir        string
	rules      func(dir string) store.Rules
	docs       []*policy.Document
	policyOpts []policy.Option
	brokerOpts []approval.Option
	tokenOpts  []tokens.Option
	names      [3]string
	deps       []func(*Stack, *server.Deps)
	handler    func(*Stack, http.Handler) http.Handler
}

// Option changes what New builds.
type Option func(*config)

// On runs the stack over an existing store and data directory (a
// restart); the store is left open when the test ends.
func On(st store.Store, dir string) Option {
	return func(c *config) { c.st, c.dir = st, dir }
}

// Rules replaces the rules store (default: what toolgate serve would use:
// fsrules in the data directory with the built-in defaults, or the shared
// database's documents).
func Rules(f func(dir string) store.Rules) Option { return func(c *config) { c.rules = f } }

// Configs are the configuration documents the policies layer under the
// workspaces' rules.
func Configs(docs ...*policy.Document) Option { return func(c *config) { c.docs = docs } }

// PolicyOptions replace the policies' options (default:
// policy.WithHome("/home/user")).
func PolicyOptions(opts ...policy.Option) Option {
	return func(c *config) { c.policyOpts = opts }
}

// Broker adds broker options: approval.WithClock, approval.WithTTL...
func Broker(opts ...approval.Option) Option {
	return func(c *config) { c.brokerOpts = append(c.brokerOpts, opts...) }
}

// TokenOptions are the token store's options.
func TokenOptions(opts ...tokens.Option) Option {
	return func(c *config) { c.tokenOpts = append(c.tokenOpts, opts...) }
}

// Names are the names of the agent, approver and admin tokens (default:
// agent-1, alice and root).
func Names(agent, approver, admin string) Option {
	return func(c *config) { c.names = [3]string{agent, approver, admin} }
}

// Deps changes the server's dependencies before the server is built:
// Limits (default: no rate limit), Mounts, Authenticate...
func Deps(f func(s *Stack, d *server.Deps)) Option {
	return func(c *config) { c.deps = append(c.deps, f) }
}

// Limits sets the server's limits.
func Limits(l server.Limits) Option {
	return Deps(func(_ *Stack, d *server.Deps) { d.Limits = l })
}

// Mounts adds the routes mounts returns to the server.
func Mounts(mounts func(s *Stack) []mount.Route) Option {
	return Deps(func(s *Stack, d *server.Deps) { d.Mounts = append(d.Mounts, mounts(s)...) })
}

// Handler wraps the server's handler before it is served.
func Handler(wrap func(s *Stack, api http.Handler) http.Handler) Option {
	return func(c *config) { c.handler = wrap }
}

// New starts a stack; it stops when the test ends.
func New(t testing.TB, opts ...Option) *Stack {
	t.Helper()
	c := config{
		policyOpts: []policy.Option{policy.WithHome("/home/user")},
		names:      [3]string{"agent-1", "alice", "root"},
	}
	for _, o := range opts {
		o(&c)
	}
	ctx := context.Background()
	s := &Stack{T: t, Dir: c.dir, Store: c.st}
	if s.Store == nil {
		s.Dir = t.TempDir()
		st, err := sqlite.Open(ctx, filepath.Join(s.Dir, "toolgate.db"))
		if err != nil {
			t.Fatal(err)
		}
		s.Store = st
		t.Cleanup(func() { st.Close() })
	}
	wc := wire.Config{Store: s.Store, Dir: s.Dir, ConfigDocs: c.docs, PolicyOptions: c.policyOpts,
		BrokerOptions: c.brokerOpts, TokenOptions: c.tokenOpts}
	if c.rules != nil {
		wc.Rules = c.rules(s.Dir)
	}
	gw, err := wire.New(ctx, wc)
	if err != nil {
		t.Fatal(err)
	}
	s.gw = gw
	s.Rules, s.Policies, s.Broker, s.Tokens = gw.Rules, gw.Policies, gw.Broker, gw.Tokens
	for i, role := range []tokens.Role{tokens.RoleAgent, tokens.RoleApprover, tokens.RoleAdmin} {
		dst := []*string{&s.Agent, &s.Approver, &s.Admin}[i]
		if *dst, err = s.Tokens.Create(c.names[i], role); err != nil {
			t.Fatal(err)
		}
	}
	deps := server.Deps{Limits: server.Limits{RatePerSecond: -1}}
	for _, f := range c.deps {
		f(s, &deps)
	}
	var h http.Handler = gw.API(deps)
	if c.handler != nil {
		h = c.handler(s, h)
	}
	s.Server = httptest.NewServer(h)
	t.Cleanup(s.Stop)
	return s
}

// Stop shuts the server and the broker down; the store stays open (for
// a restart On it) until the test ends.
func (s *Stack) Stop() {
	s.Server.CloseClientConnections()
	s.Server.Close()
	s.Broker.Close()
}

// Response is a finished request.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends a request to the server and reads the whole response. token,
// if not empty, is sent as a bearer token; body is sent as it is if a
// string or []byte, else as JSON; hdr holds header name/value pairs,
// added after the token.
func (s *Stack) Do(method, path, token string, body any, hdr ...string) Response {
	s.T.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			s.T.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, s.Server.URL+path, rd)
	if err != nil {
		s.T.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Add(hdr[i], hdr[i+1])
	}
	resp, err := s.Server.Client().Do(req)
	if err != nil {
		s.T.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil && !errors.Is(err, io.EOF) {
		s.T.Fatal(err)
	}
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: data}
}
