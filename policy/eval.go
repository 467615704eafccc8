package policy

import (
	"encoding/json"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/glob"
	"github.com/toolgate/toolgate/internal/sensitive"
	"github.com/toolgate/toolgate/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Env is the state a call is decided in, besides the engine's own rules.
type Env struct {
	// Mode is the session's approval mode.
	Mode toolgate.Mode
	// Agent is the agent layer to use; nil picks the engine's layer for the
	// call's agent type, if any.
	Agent *Ruleset
	// Grants are the grant layers in merge order: global, workspace,
	// session, turn. Later layers win.
	Grants []*Ruleset
	// Vars looks up the variables of the environment the call's shell
	// command runs in, when the caller knows it (a hook running in the
	// agent's own environment passes os.LookupEnv); nil when it does not.
	// A file operand's variables are then read at their values
	// ("cat $XDG_CONFIG_HOME/gh/hosts.yml"); without it a variable with no
	// known value may name any file, a protected one among them. $PWD is
	// the call's cwd either way.
	Vars func(name string) (string, bool)
}

// Reasons used when no rule decides. They are constants so that deciding
// does not allocate.
const (
	reasonNoRule         = "no rule allows this call"
	reasonOpenWrite      = "writes a file that no write rule allows"
	reasonDynamicRead    = "reads a file whose name is only known when the command runs"
	reasonModeYolo       = "allowed by yolo mode"
	reasonModeReadOnly   = "allowed by read-only mode for a read-tier tool"
	reasonModeAutoEdit   = "allowed by auto-edit mode for a read- or write-tier tool"
	reasonModeAutoDeny   = "denied by auto-deny mode, which denies every call"
	reasonModeDontAsk    = "denied by dont-ask mode, which denies what would need a person's approval: "
	reasonModeReadAsk    = "read-only mode asks before a write- or exec-tier call"
	reasonModeEditAsk    = "auto-edit mode asks before an exec-tier call"
	reasonTampering      = "The managed layer denies this in every mode: agents may not change their own or toolgate's configuration"
	reasonMaybeTampering = "A person decides in every mode: agents may not change their own or toolgate's configuration"
	reasonOverride       = "no rule, grant or mode allows this without a person's approval"
	reasonEmptyCommand   = "empty command: nothing to approve"
	reasonNoCommand      = "shell call has no command argument"
	reasonNothingDecide  = "the call has no subject any rule decides"
)

// subject is one string rules match, with how to match it.
type subject struct {
	kind   toolgate.SubjectKind
	family string // index key of the rules that apply
	tool   string // tool name glob tool patterns are tested against
	alias  string // the seed form of an MCP tool name, if any
	same   string // alias-group key of the call's tool: exact rules match it
	call   string // the call's tool name, which exact glob rules match
	texts  [4]string
	n      int // texts[:n] are the subject's forms (path as given, absolute, relative)
	// ws is the path relative to the workspace root when inWS: only
	// "$WORKSPACE/" rules match it.
	ws     string
	inWS   bool
	alts   []string // forms only deny and ask rules match
	opaque bool     // no allow rule may match
	flags  []string // exec-capable flags an allow rule must name
	shell  bool     // shell-command matching (trailing " *" matches bare)
	cmd    *shell.Command
	// classes are the subject's risk classes (a command's), fclass a
	// file's; an allow rule covers the subject only if it names each
	// class's token (DESIGN §3.5).
	classes []shell.ClassRisk
	fclass  shell.ClassRisk
	// restrict makes the subject count only when it restricts, like a
	// read: a command run elsewhere by ssh or docker exec, an operand
	// that matches a file rule.
	restrict bool
	hidden   bool // left out of the decision's subjects
	// operand marks a command's operand checked as a possible file.
	operand bool
	// pat is set for a pattern subject, a file operand written as a
	// shell glob (pattern.go).
	pat *patForms
	// maybe marks a tampering class found only as a possibility: it asks
	// instead of denying.
	maybe bool
	// under marks a delete of some files under the path, picked by a
	// test other than a name (find build -type f -delete): outside the
	// workspace, or of the workspace root (its .git among them), it is
	// as destructive as deleting the tree.
	under bool
	// toolArg marks a path a tool's argument names (toolpaths.go): its
	// sensitive class is looked up without allocating.
	toolArg bool
	// unprefixable marks a subject of a command line with a construct no
	// grant covers (§3.2): allow grants do not match it (grant).
	unprefixable bool
	// readOnly marks a shell command that only reads, on paths no secret
	// can be under: the "$READ_ONLY" rules match it (markReadOnly).
	readOnly bool
}

// risky reports whether the subject has a risk class, and the first.
func (s *subject) risky() (shell.ClassRisk, bool) {
	if s.fclass.Class != "" {
		return s.fclass, true
	}
	if len(s.classes) > 0 {
		return s.classes[0], true
	}
	return shell.ClassRisk{}, false
}

// tampering reports whether the subject tampers with toolgate or the
// agent's configuration.
func (s *subject) tampering() (shell.ClassRisk, bool) {
	if s.fclass.Class == shell.ClassTampering && !s.maybe {
		return s.fclass, true
	}
	for _, c := range s.classes {
		if c.Class == shell.ClassTampering {
			return c, true
		}
	}
	return shell.ClassRisk{}, false
}

// secret reports whether the subject reads a secret ($CREDENTIALS,
// DESIGN §3.6): a key, token or credential file read or searched.
// Such a subject is never open: no mode allows it, only a rule that names
// it or a person's answer does.
func (s *subject) secret() bool {
	return s.fclass.Class == shell.ClassCredential
}

// classReason words a risk class for a person: the class, then what the
// subject does.
func classReason(c shell.ClassRisk) string {
	return c.Class.Label() + ": " + c.Reason
}

func (s *subject) display() string { return s.texts[0] }

// verdict is the result for one subject.
type verdict struct {
	action toolgate.Action
	rule   *compiledRule
	open   bool
	reason string
}

// Decide decides call c in env and writes the decision into d, reusing d's
// slices. It never returns allow for a call it cannot analyse. The texts
// of d are clipped (Decision.Bound): the call keeps the command whole.
//
// A call that names its agent's home (Call.Home) other than the engine's
// is decided for both homes, the stricter decision standing (home.go).
func (e *Engine) Decide(c *toolgate.Call, env Env, d *toolgate.Decision) {
	if home, ok := e.callHome(c.Home); ok {
		e.decideHome(c, home, env, d)
	} else {
		e.decideConfined(c, env, d)
	}
	d.Bound()
}

// decideConfined is decide with the sandbox's confined allow offered.
func (e *Engine) decideConfined(c *toolgate.Call, env Env, d *toolgate.Decision) {
	e.decide(c, env, d)
	if d.Action == toolgate.Ask && (e.sandbox || e.sandboxRules) {
		e.confine(c, env, d)
	}
}

func (e *Engine) decide(c *toolgate.Call, env Env, d *toolgate.Decision) {
	d.Reset()
	var aliasBuf [128]byte
	info, known := e.profile.lookup(c.Tool)
	fam, alias := c.Tool, ""
	if known {
		fam = info.family
	} else if key, ok := e.mcpKey(c.Tool, aliasBuf[:0]); ok {
		// Both spellings answer to the same rules.
		fam, alias = key, key
	}
	tier := info.spec.Tier
	if !known {
		tier = c.Tier
	}
	d.Tier, d.Mode = tier.Effective(), env.Mode
	agent := env.Agent
	if agent == nil && c.Agent != "" {
		agent = e.agentLayer(c.Agent)
	}

	var local [4]subject
	subs := local[:0]
	base := subject{family: fam, tool: c.Tool, alias: alias, same: e.sameKey(c.Tool, alias), call: c.Tool}
	switch info.spec.Kind {
	case KindShell:
		var ok bool
		if subs, ok = e.shellSubjects(c, &env, info.spec, base, d); !ok {
			return
		}
	case KindRead, KindWrite, KindGlob, KindGrep:
		subs = e.pathSubjects(subs, c, info.spec, base, d)
	case KindSkill, KindURL:
		s := base
		s.kind = toolgate.SubjectPath
		s.texts[0], s.n = argText(c.Args, info.spec.Args, info.spec.Kind), 1
		if s.texts[0] == "" {
			s.opaque = true
		}
		if info.spec.Kind == KindURL {
			s.fclass = urlClass(s.texts[0])
		}
		subs = append(subs, s)
		if info.spec.Kind == KindURL {
			// A file URL reads a file on this machine, as Read would.
			for _, n := range info.spec.Args {
				if u, ok := c.Args[n].(string); ok && fileURI(strings.TrimSpace(u)) {
					subs = e.argPathSubjects(subs, strings.TrimSpace(u), c.Cwd, false)
				}
			}
		}
	default:
		s := base
		s.kind = toolgate.SubjectTool
		s.n = 1 // matched as the empty subject: only patterns like "*" apply
		subs = append(subs, s)
		subs = e.toolCodeRisks(subs, &subs[0], c, &env, d)
		subs = e.toolPathSubjects(subs, c)
		if len(subs) >= maxOperands {
			// Paths past the bound were never checked: no mode allows it.
			d.Risks = append(d.Risks, toolgate.Risk{Code: shell.RiskBudget, Severity: toolgate.SeverityUnprefixable,
				Reason: reasonOperandBudget(), Subject: c.Tool})
		}
		if writerToolName(c.Tool) {
			e.criticalWrites(subs[1:], d)
		}
	}

	best, bestAt := toolgate.NoAction, -1
	for i := range subs {
		s := &subs[i]
		v := e.judge(s, c.Args, &env, agent, d.Tier)
		text := s.display()
		if s.kind == toolgate.SubjectTool {
			text = c.Tool
		}
		sr := toolgate.SubjectResult{Kind: s.kind, Text: text, Action: v.action, Open: v.open}
		if v.rule != nil {
			sr.Rule = &v.rule.ref
		}
		if sr.Action == toolgate.NoAction && s.restrict {
			s.hidden = true // an operand or remote command that restricts nothing
			continue
		}
		d.Subjects = append(d.Subjects, sr)
		d.Risks = e.classRisks(d.Risks, s, text)
		if v.action > best || bestAt < 0 && v.action == best {
			best, bestAt = v.action, i
			d.Reason = v.reason
			d.Rule = sr.Rule
		}
	}
	if best == toolgate.NoAction {
		d.Action, d.Reason, d.Rule = toolgate.Ask, reasonNothingDecide, nil
		return
	}
	d.Action = best
	// Safety override (DESIGN §2 step 6): a critical risk needs a human
	// unless the session is yolo. An unprefixable construct binds prefix
	// grants only (§3.2; eligible): rules judge its inner commands, and
	// its run-time values, as subjects like any other.
	if d.Action == toolgate.Allow && env.Mode != toolgate.ModeYolo {
		for _, r := range d.Risks {
			if r.Severity == toolgate.SeverityCritical || r.Severity == toolgate.SeverityUnprefixable && !shell.JudgedByRules(r.Code) {
				d.Action, d.Reason, d.Rule = toolgate.Ask, reasonOverride, nil
				break
			}
		}
	}
	// auto-deny is seed 004's kill switch: every call, explicit allows
	// included.
	if env.Mode == toolgate.ModeAutoDeny && d.Action != toolgate.Deny {
		d.Action, d.Reason, d.Rule = toolgate.Deny, reasonModeAutoDeny, nil
	}
	// dont-ask (Claude Code's dontAsk) denies what would need a person.
	if env.Mode == toolgate.ModeDontAsk && d.Action == toolgate.Ask {
		d.Action, d.Reason = toolgate.Deny, reasonModeDontAsk+d.Reason
	}
	// Past the analysis budget, or inside a nested script the parser
	// could not read, part of the command was never looked at: like a
	// command too large to analyse or unparsable, no mode allows it.
	if d.Action == toolgate.Allow {
		for _, r := range d.Risks {
			if r.Code == shell.RiskBudget || r.Code == shell.RiskUnparsed {
				d.Action, d.Reason, d.Rule = toolgate.Ask, r.Reason, nil
				break
			}
		}
	}
	if d.Action == toolgate.Ask && onlyClassRisks(d.Risks) {
		e.suggest(c, subs, d)
	}
	if len(d.Risks) > 0 {
		d.Reason = toolgate.Explain(explained(d.Action, d.Risks), d.Reason)
	}
}

// explained returns the risks a decision's reason leads with: for an
// allow, not the constructs the rules judged (a substitution, a lone &),
// which did not stand in its way.
func explained(a toolgate.Action, risks []toolgate.Risk) []toolgate.Risk {
	if a != toolgate.Allow {
		return risks
	}
	n := 0
	for i := range risks {
		if risks[i].Severity != toolgate.SeverityUnprefixable || !shell.JudgedByRules(risks[i].Code) {
			n++
		}
	}
	if n == len(risks) {
		return risks
	}
	out := make([]toolgate.Risk, 0, n)
	for _, r := range risks {
		if r.Severity != toolgate.SeverityUnprefixable || !shell.JudgedByRules(r.Code) {
			out = append(out, r)
		}
	}
	return out
}

// judge decides one subject: veto layers, then the merged layers scanned
// from the end, then the subject kind's rules and the mode.
func (e *Engine) judge(s *subject, args map[string]any, env *Env, agent *Ruleset, tier toolgate.Tier) verdict {
	if s.pat != nil {
		s.pat.unc = nil
		return uncertain(s, e.judgeSubject(s, args, env, agent, tier))
	}
	return e.judgeSubject(s, args, env, agent, tier)
}

// judgeSubject is judge without the pattern subjects' last step.
func (e *Engine) judgeSubject(s *subject, args map[string]any, env *Env, agent *Ruleset, tier toolgate.Tier) verdict {
	if s.kind == toolgate.SubjectRead || s.kind == toolgate.SubjectWrite {
		args = nil // conditions name the call's arguments, not a file's
	}
	if s.operand {
		return e.judgeOperand(s, args, env, agent)
	}
	var floor *compiledRule
	if r := e.managed.find(s, args); r != nil {
		switch r.ref.Action {
		case toolgate.Deny:
			return verdict{action: toolgate.Deny, rule: r, reason: r.reasonFor(s)}
		case toolgate.Ask:
			floor = r
		}
	}
	if cr, ok := s.tampering(); ok {
		// The managed layer, even where its rules do not reach (a
		// command's class): no rule, grant or mode allows it.
		return verdict{action: toolgate.Deny, reason: "Tampering: " + cr.Reason + ". " + reasonTampering}
	}
	if s.maybe && s.fclass.Class == shell.ClassTampering {
		// Tampering found only as a possibility (".cl*", a path inline
		// code names): a person looks, in every mode.
		return verdict{action: toolgate.Ask, reason: "Tampering: " + s.fclass.Reason + ". " + reasonMaybeTampering}
	}
	if r := agent.find(s, args); r != nil && r.ref.Action == toolgate.Deny {
		return verdict{action: toolgate.Deny, rule: r, reason: r.reasonFor(s)}
	}
	var r *compiledRule
	for i := len(env.Grants) - 1; i >= 0 && r == nil; i-- {
		r = env.Grants[i].find(s, args)
	}
	if r == nil {
		r = e.static.find(s, args)
		if r != nil && r.ref.Sandbox {
			// A sandbox rule only turns an ask into a confined allow:
			// a deny that matches stands, before it or after.
			if d := e.staticDenies.find(s, args); d != nil {
				r = d
			}
		}
	}
	if r == nil {
		r = agent.find(s, args)
	}
	v := verdict{action: toolgate.Ask, open: true, reason: reasonNoRule}
	if r != nil {
		v = verdict{action: r.ref.Action, rule: r, open: r.open, reason: r.reasonFor(s)}
	}
	// unset is true when no rule a person wrote or toolgate ships decides
	// the subject: no match, or only a catch-all.
	unset := r == nil || r.catchAll
	cr, risky := s.risky()
	wild := risky && v.open
	if wild {
		// No rule that names the risky form matched: it needs a human,
		// whatever a wildcard allows (DESIGN §3.5). It stays open, so
		// yolo still allows it, unless it reads a secret: that is never
		// open, in any mode (DESIGN §2 step 4).
		v = verdict{action: toolgate.Ask, open: !s.secret(), reason: "a wildcard allow does not cover this; only a rule that names " + strconv.Quote(cr.Token) + " does"}
	}
	switch {
	case s.restrict && !risky:
		if v.open || v.action == toolgate.Allow {
			if floor != nil {
				return verdict{action: toolgate.Ask, rule: floor, reason: floor.reasonFor(s)}
			}
			return verdict{action: toolgate.NoAction, rule: v.rule, open: v.open}
		}
	case s.kind == toolgate.SubjectRead && !wild:
		// A read only restricts: an explicit deny or ask counts; an open
		// result or an allow says nothing, unless the file is unknown.
		if unset && s.opaque {
			v = verdict{action: toolgate.Ask, open: true, reason: reasonDynamicRead}
		} else if v.open || v.action == toolgate.Allow {
			if floor != nil {
				// The admin's managed ask holds for reads too.
				return verdict{action: toolgate.Ask, rule: floor, reason: floor.reasonFor(s)}
			}
			return verdict{action: toolgate.NoAction, rule: v.rule, open: v.open}
		}
	case s.kind == toolgate.SubjectWrite:
		if unset && !wild {
			v = verdict{action: toolgate.Ask, open: true, reason: reasonOpenWrite}
		}
	}
	if v.open {
		v = applyMode(v, env.Mode, tier)
	}
	if floor != nil && (v.action == toolgate.Allow || v.rule != nil && v.rule.ref.Sandbox) {
		// The admin's ask holds over an allow, and over a sandbox rule's
		// offer of a confined allow.
		v = verdict{action: toolgate.Ask, rule: floor, reason: floor.reasonFor(s)}
	}
	return v
}

// applyMode decides an open subject by the mode and the call's tier
// (DESIGN §2 step 4): default keeps the answer of the defaults (or ask),
// read-only allows read and asks write and exec, auto-edit allows read and
// write and asks exec, yolo allows, auto-deny denies. An open subject's
// answer is never deny: default denies are not open.
func applyMode(v verdict, m toolgate.Mode, tier toolgate.Tier) verdict {
	switch m {
	case toolgate.ModeYolo:
		v.action, v.reason = toolgate.Allow, reasonModeYolo
	case toolgate.ModeReadOnly:
		if tier == toolgate.TierRead {
			v.action, v.reason = toolgate.Allow, reasonModeReadOnly
		} else if v.action == toolgate.Allow {
			v.action, v.reason = toolgate.Ask, reasonModeReadAsk
		}
	case toolgate.ModeAutoEdit:
		if tier <= toolgate.TierWrite {
			v.action, v.reason = toolgate.Allow, reasonModeAutoEdit
		} else if v.action == toolgate.Allow {
			v.action, v.reason = toolgate.Ask, reasonModeEditAsk
		}
	case toolgate.ModeAutoDeny:
		v.action, v.reason = toolgate.Deny, reasonModeAutoDeny
	}
	return v
}

// find returns the last rule of rs that matches s, or nil. rs may be nil.
func (rs *Ruleset) find(s *subject, args map[string]any) *compiledRule {
	if rs == nil {
		return nil
	}
	if s.pat != nil {
		return rs.findPattern(s, args)
	}
	if i := rs.findIndex(s, args); i >= 0 {
		return &rs.rules[i]
	}
	return nil
}

// findIndex is find for a subject that is not a pattern: the index of
// the last rule that matches it, -1 for none.
func (rs *Ruleset) findIndex(s *subject, args map[string]any) int32 {
	if len(s.alts) > 0 && (s.kind == toolgate.SubjectRead || s.kind == toolgate.SubjectWrite) {
		return rs.findAlts(s, args)
	}
	return rs.findForms(s, args)
}

// findForms is findIndex over the subject's own forms, alternatives
// aside. (findAlts calls it, not findIndex: a recursive call would move
// the subjects it builds to the heap.)
func (rs *Ruleset) findForms(s *subject, args map[string]any) int32 {
	best := int32(-1)
	if ix := rs.exact[s.family]; ix != nil {
		best = ix.lastAny(rs, s, args, best)
	}
	if rs.any != nil {
		best = rs.any.lastAny(rs, s, args, best)
	}
	if !rs.profile.knownFamily(s.family) {
		for j := len(rs.wild) - 1; j >= 0 && rs.wild[j] > best; j-- {
			r := &rs.rules[rs.wild[j]]
			if !r.toolGlob.Match(s.tool) && (s.alias == "" || !r.toolGlob.Match(s.alias)) {
				continue
			}
			if r.matchesAny(s, args) {
				best = rs.wild[j]
				break
			}
		}
	}
	return best
}

// findAlts is findIndex for a file known only when the command runs,
// which may be each of its static alternatives (s.alts): an alternative
// restricts when the rule that decides it as a literal path (the last
// match, allows included) denies or asks, so "f=.env.example; cat $f"
// is read as "cat .env.example" is.
func (rs *Ruleset) findAlts(s *subject, args map[string]any) int32 {
	bare := *s
	bare.alts = nil
	best := rs.findForms(&bare, args)
	for _, t := range s.alts {
		lit := bare
		lit.texts[0], lit.n, lit.opaque = t, 1, false
		if a := rs.findForms(&lit, args); a > best && rs.rules[a].ref.Action != toolgate.Allow {
			best = a
		}
	}
	return best
}

// matches reports whether r matches text, a form of s.
func (r *compiledRule) matches(text string, s *subject) bool {
	if r.readOnly {
		return s.readOnly
	}
	return r.matchText(text, s.shell)
}

// matchesAny reports whether r matches any form of s.
func (r *compiledRule) matchesAny(s *subject, args map[string]any) bool {
	if r.readOnly {
		return s.readOnly && r.eligible(s, args, true)
	}
	if r.ws {
		return s.inWS && r.eligible(s, args, true) && r.matchText(s.ws, false)
	}
	if r.eligible(s, args, true) {
		for k := 0; k < s.n; k++ {
			if r.matchText(s.texts[k], s.shell) {
				return true
			}
		}
	}
	if len(s.alts) > 0 && r.eligible(s, args, false) {
		for _, t := range s.alts {
			if r.matchText(t, s.shell) {
				return true
			}
		}
	}
	return false
}

func containsString(s, sub string) bool { return strings.Contains(s, sub) }

func (r *compiledRule) matchText(t string, shellSubject bool) bool {
	switch {
	case r.readOnly:
		return false // a property of the subject, not of a text (matches)
	case r.sens != 0:
		e, ok := sensitive.Lookup(t, r.home)
		return ok && e.Kind == r.sens
	case r.any:
		return true
	case r.isPrefix:
		return strings.HasPrefix(t, r.prefix)
	case r.pat.Match(t):
		return true
	}
	return shellSubject && r.hasBare && r.bareMatch(t)
}

func (r *compiledRule) bareMatch(t string) bool { return r.bareGlob.Match(t) }

func (c *compiledCond) holds(args map[string]any) bool {
	v, ok := args[c.arg]
	if !ok {
		return false
	}
	switch v := v.(type) {
	case string:
		return c.pat.Match(v)
	case bool:
		return c.pat.Match(strconv.FormatBool(v))
	case float64:
		return c.pat.Match(strconv.FormatFloat(v, 'f', -1, 64))
	case nil:
		return c.pat.Match("null")
	}
	b, err := json.Marshal(v)
	return err == nil && c.pat.Match(string(b))
}

// argText returns the first named argument that holds a string, or "" —
// for a URL tool, "domain:HOST" of the URL.
func argText(args map[string]any, names []string, k Kind) string {
	for _, n := range names {
		if s, ok := args[n].(string); ok && s != "" {
			if k == KindURL {
				return urlSubject(s)
			}
			return s
		}
	}
	return ""
}

// urlClass classifies a fetch tool's host as curl's URL operand is
// (DESIGN §3.5): a cloud metadata service hands out the machine's
// credentials (a secret read: never open); this machine's own services
// (toolgate's gateway, a database, an admin port) trust local callers,
// so a wildcard allow does not cover them. A file:// URL has no host: its
// subject is opaque and asks.
func urlClass(host string) shell.ClassRisk {
	switch shell.ClassifyHost(host) {
	case shell.HostMetadata:
		return shell.ClassRisk{Class: shell.ClassCredential, Reason: "fetches from " + host + ", the cloud metadata service, which hands out the machine's credentials", Token: host}
	case shell.HostLoopback:
		return shell.ClassRisk{Class: shell.ClassPrivilege, Reason: "fetches from " + host + ", a service on this machine that trusts local callers", Token: host}
	}
	return shell.ClassRisk{}
}

// urlSubject returns a URL's host, the subject of URL tools. Rules name it
// as Claude Code's WebFetch(domain:…) does; the compiler strips "domain:".
func urlSubject(u string) string { return shell.URLHost(u) }

// pathSubjects adds one subject per path argument of a file tool. A file
// tool without a usable path gets an opaque subject: never an allow.
func (e *Engine) pathSubjects(subs []subject, c *toolgate.Call, spec ToolSpec, base subject, d *toolgate.Decision) []subject {
	kind := toolgate.SubjectPath
	found := false
	for _, name := range spec.Args {
		switch v := c.Args[name].(type) {
		case string:
			if v == "" {
				continue
			}
			subs = append(subs, e.fileSubject(base, kind, v, c.Cwd, ""))
			found = true
		case []any:
			for _, x := range v {
				p, ok := x.(string)
				if !ok {
					s := base
					s.kind, s.opaque, s.n = kind, true, 1
					subs = append(subs, s)
					continue
				}
				subs = append(subs, e.fileSubject(base, kind, p, c.Cwd, ""))
			}
			found = true
		}
		if found && spec.Kind != KindRead && spec.Kind != KindWrite {
			break // glob and grep: pattern, else path
		}
	}
	if !found {
		s := base
		s.kind, s.n = kind, 1
		switch {
		case spec.Kind == KindGlob || spec.Kind == KindGrep,
			spec.InCwd && !anyString(c.Args):
			// Searching the working directory; a reader with no argument
			// that could name a path (list_files {}, LS {}) lists or
			// inspects the working directory too. One with a string
			// argument its spec does not name might read anything.
			s.texts[0] = "."
			if c.Cwd != "" {
				s.texts[1], s.n = c.Cwd, 2
			}
		default:
			s.opaque = true
		}
		subs = append(subs, s)
	}
	if spec.Kind == KindRead || spec.Kind == KindWrite || spec.Kind == KindGrep || spec.Kind == KindGlob {
		for i := range subs {
			if !subs[i].opaque {
				subs[i].fclass = e.fileClass(&subs[i], spec.Kind == KindWrite, false, false)
				if spec.Kind == KindGrep && subs[i].fclass.Class == "" {
					subs[i].fclass = e.searchClass(&subs[i])
				}
			}
		}
	}
	if spec.Kind == KindGrep || spec.Kind == KindGlob {
		// The path searched is read as Read's would be: a read rule that
		// denies it (".env") holds for a search of it.
		if root, ok := c.Args["path"].(string); ok && root != "" {
			subs = e.argPathSubjects(subs, root, c.Cwd, false)
		}
	}
	switch spec.Kind {
	case KindGrep, KindRead:
		// Grep's glob picks the files searched, at any depth; so does a
		// reader's include (read_many_files), one glob or a list.
		root, _ := c.Args["path"].(string)
		for _, k := range [...]string{"glob", "include"} {
			switch g := c.Args[k].(type) {
			case string:
				subs = e.globSubjects(subs, g, root, c.Cwd, true)
			case []any:
				for _, x := range g {
					if g, ok := x.(string); ok {
						subs = e.globSubjects(subs, g, root, c.Cwd, true)
					}
				}
			}
		}
	case KindGlob:
		// Glob's pattern names files under its path.
		root, _ := c.Args["path"].(string)
		if g, ok := c.Args["pattern"].(string); ok {
			subs = e.globSubjects(subs, g, root, c.Cwd, false)
		}
	}
	if spec.Kind == KindWrite {
		e.criticalWrites(subs, d)
	}
	return subs
}

// criticalWrites records a critical risk for each write subject that
// names a critical path (a shell start-up file, the agent's hooks…),
// which asks in every mode: Write's paths, and those of a tool whose
// name says it writes.
func (e *Engine) criticalWrites(subs []subject, d *toolgate.Decision) {
	for i := range subs {
		if subs[i].kind != toolgate.SubjectWrite && subs[i].kind != toolgate.SubjectPath {
			continue
		}
		for k := 0; k < subs[i].n; k++ {
			if code, reason, ok := shell.IsCriticalWritePath(subs[i].texts[k], e.home); ok {
				d.Risks = append(d.Risks, toolgate.Risk{Code: code, Severity: toolgate.SeverityCritical, Reason: reason, Subject: subs[i].texts[0]})
				break
			}
		}
	}
}

// fileSubject builds a path subject: the cleaned path, its absolute form
// when the working directory is known, its form relative to it, and its
// in-workspace form (wsMarker + the path relative to the workspace root)
// when it lies inside the root. A path with a NUL byte is opaque.
func (e *Engine) fileSubject(base subject, kind toolgate.SubjectKind, p, cwd, dir string) subject {
	s := base
	s.kind = kind
	if strings.IndexByte(p, 0) >= 0 {
		s.texts[0], s.n, s.opaque = p, 1, true
		return s
	}
	if h := e.tildeHome(); h != "" {
		expand := func(q string) string {
			if q == "~" || strings.HasPrefix(q, "~/") {
				return h + q[1:]
			}
			return q
		}
		// The directory too: a command ssh runs starts in the home
		// directory ("~").
		p, dir = expand(p), expand(dir)
	}
	// "/proc/self/root/etc/shadow" is "/etc/shadow": the process's root
	// directory link is stripped before any rule or class sees the path.
	clean := sensitive.ProcRoot(path.Clean(p))
	s.texts[0], s.n = clean, 1
	if dir != "" && !path.IsAbs(clean) {
		clean = path.Join(dir, clean)
		s.texts[1], s.n = clean, 2
	}
	abs := ""
	if path.IsAbs(clean) {
		abs = clean
	}
	if cwd != "" {
		if !path.IsAbs(clean) {
			abs = path.Join(cwd, clean)
			// "../proj/secrets/x" from inside proj is "secrets/x": the
			// relative rules must see the path back into the workspace.
			// The absolute form stays last.
			if strings.HasPrefix(clean, "../") {
				if rel, ok := strings.CutPrefix(abs, strings.TrimSuffix(cwd, "/")+"/"); ok {
					s.texts[s.n] = rel
					s.n++
				}
			}
			s.texts[s.n] = abs
			s.n++
		} else if rel, ok := strings.CutPrefix(clean, strings.TrimSuffix(cwd, "/")+"/"); ok {
			s.texts[s.n] = rel
			s.n++
		}
	}
	s.ws, s.inWS = e.inWorkspace(clean, abs, cwd)
	s.alts = foldedForms(s.alts, s.texts[0], abs)
	return s
}

// systemArea reports whether an absolute path is the root directory or
// lies in a directory of the system's own files (its configuration,
// programs, libraries, boot files, services' data), and names it. A
// remote write there replaces what the other machine runs on; the
// places software is deployed to (/opt, /srv, /var/www, /usr/local,
// /usr/share/nginx/html, a home) are not among them.
func systemArea(p string) (string, bool) {
	if p == "/" {
		return "/", true
	}
	for _, d := range [...]string{"/etc", "/boot", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/usr/bin", "/usr/sbin", "/usr/lib", "/var/lib", "/root", "/sys", "/proc", "/dev"} {
		if p == d || strings.HasPrefix(p, d+"/") {
			return d, true
		}
	}
	return "", false
}

// foldedForms appends the lower-case forms of a path, as given and
// absolute, when they differ from it: on a file system that folds case
// (macOS, Windows) ".ENV" is ".env", and on any system no project names a
// secret or agent file ".Env" but to pass a rule. Deny and ask rules see
// them (subject.alts); allow rules do not.
func foldedForms(alts []string, forms ...string) []string {
	for _, f := range forms {
		if f == "" || !hasUpperASCII(f) {
			continue
		}
		l := strings.ToLower(f)
		if !slices.Contains(alts, l) {
			alts = append(alts, l)
		}
	}
	return alts
}

func hasUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// inWorkspace returns a path relative to the workspace root it lies in:
// the call's cwd or a root given with WithWorkspaceRoots. Without an
// absolute form, a relative path that does not climb out with ".." is
// inside. A root of "/" counts for nothing: it would make every write an
// in-workspace write.
func (e *Engine) inWorkspace(clean, abs, cwd string) (string, bool) {
	if !path.IsAbs(abs) {
		if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
			return "", false
		}
		return clean, true
	}
	if rel, ok := underRoot(abs, cwd); ok {
		return rel, true
	}
	for _, root := range e.roots {
		if rel, ok := underRoot(abs, root); ok {
			return rel, true
		}
	}
	return "", false
}

// underRoot returns abs relative to root if it lies inside it.
func underRoot(abs, root string) (string, bool) {
	root = strings.TrimSuffix(root, "/")
	if root == "" || root[0] != '/' {
		return "", false
	}
	if abs == root {
		return ".", true
	}
	rest, ok := strings.CutPrefix(abs, root)
	if !ok || rest[0] != '/' {
		return "", false
	}
	return rest[1:], true
}

// shellSubjects analyses the call's command and returns a subject per
// simple command and per file. ok is false when the decision is already
// made (no command, a parse failure, too large).
func (e *Engine) shellSubjects(c *toolgate.Call, env *Env, spec ToolSpec, base subject, d *toolgate.Decision) ([]subject, bool) {
	src, ok := commandText(c.Args, spec.Args)
	if !ok {
		d.Action, d.Reason = toolgate.Ask, reasonNoCommand
		return nil, false
	}
	a, err := e.shell.AnalyzeEnv(src, e.shellVars(env.Vars, c.Cwd))
	if err != nil {
		d.Action, d.Reason = toolgate.Ask, "cannot analyse shell command: "+err.Error()
		return nil, false
	}
	if len(a.Commands) == 0 && len(a.Files) == 0 {
		d.Action, d.Reason = toolgate.Ask, reasonEmptyCommand
		return nil, false
	}
	d.Risks = append(d.Risks, a.Risks...)
	subs := make([]subject, 0, len(a.Commands)+len(a.Files))
	for i := range a.Commands {
		cmd := &a.Commands[i]
		s := base
		s.kind, s.shell, s.cmd = toolgate.SubjectCommand, true, cmd
		s.texts[0], s.n = cmd.Text, 1
		s.alts, s.opaque, s.flags = cmd.Alts, cmd.Opaque, cmd.ExecFlags
		if cmd.ServesCwd != "" && c.Cwd != "" && shell.ServesSecrets(path.Clean(c.Cwd)) {
			// A file server started in the call's own directory, which
			// only the call knows: the home directory, "/", a
			// credential directory.
			cmd.Classes = append(cmd.Classes, shell.ClassRisk{Class: shell.ClassExfiltrate,
				Reason: cmd.ServesCwd + " serves its working directory " + c.Cwd + " to the network", Token: cmd.ServesCwd})
		}
		s.classes, s.restrict = cmd.Classes, cmd.Remote || cmd.Runner
		subs = append(subs, s)
	}
	subs = e.analysisFiles(subs, a, c, base, d)
	e.markReadOnly(subs, a, c.Cwd)
	if a.Unprefixable() {
		for i := range subs {
			subs[i].unprefixable = true
		}
	}
	if e.fileRules {
		var all bool
		if subs, all = e.operandSubjects(subs, a, c.Cwd); !all {
			d.Risks = append(d.Risks, toolgate.Risk{Code: shell.RiskBudget, Severity: toolgate.SeverityUnprefixable,
				Reason: reasonOperandBudget(), Subject: toolgate.Clip(src, toolgate.MaxSubjectText)})
		}
	}
	return subs, true
}

// analysisFiles appends a subject for each file a shell analysis reports
// (read or written, a path, a glob or a value known only at run time),
// with its risk class, and adds to d the critical risks of the writes
// only the call's working directory reveals. base is the call's subject:
// its tool names the grants that may cover the files.
func (e *Engine) analysisFiles(subs []subject, a *shell.Analysis, c *toolgate.Call, base subject, d *toolgate.Decision) []subject {
	// A file written the same way more than once ("cat *.go *.go …",
	// "a >f >f …") is one subject: the decision's work stays linear in
	// the distinct files, not in the words.
	var seen map[fileKey]bool
	if len(a.Files) > 16 {
		seen = make(map[fileKey]bool, len(a.Files))
	}
	for _, f := range a.Files {
		if seen != nil && len(f.Alts) == 0 {
			k := keyOf(&f)
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		fam, kind := familyRead, toolgate.SubjectRead
		if f.Write {
			fam, kind = familyWrite, toolgate.SubjectWrite
		}
		// same stays the call's tool: a grant for Write does not cover the
		// files a Bash command writes.
		fb := subject{family: fam, tool: canonicalTool(fam), same: base.same, call: base.call, alias: base.alias}
		var s subject
		// A quoted '*', '?' or '[' is a literal character: a static path
		// names the one file spelled so ("pip install -e '.[dev]'").
		pattern := f.Glob && !f.Into && isPattern(f.Path, f.HidesDots) // an extraction directory stays opaque
		if pattern {
			s = e.patternSubject(fb, kind, f.Path, c.Cwd, f.Dir, f.HidesDots)
			s.fclass = e.patternClass(&s, f.Write, f.Delete, f.Recursive)
			if s.fclass.Class == "" && a.NoCaseGlob {
				// Where case may not count ("~/.SSH/*"), the rules'
				// spellings say nothing of what the glob reaches.
				s.fclass, s.maybe = unknownClass(&f)
			}
		} else if !f.Static || f.Glob || strings.ContainsAny(f.Path, "$`") {
			// Only known when the command runs (an expansion or a glob):
			// allow rules cannot vouch for it.
			s = fb
			s.kind, s.opaque = kind, true
			s.texts[0], s.n = f.Path, 1
			s.alts = f.Alts // its default spellings: deny and ask rules see them
			s.fclass, s.maybe = e.altClass(fb, kind, &f, c.Cwd)
			// A variable nobody knows, or a glob too wide to compare
			// with the rules (".*" may be ".."): any file, a
			// protected one among them.
			if s.fclass.Class == "" && (f.Unknown || f.Glob) {
				s.fclass, s.maybe = unknownClass(&f)
			}
		} else {
			s = e.fileSubject(fb, kind, f.Path, c.Cwd, f.Dir)
			if len(f.Alts) > 0 {
				// A path read with the environment: its defaults too.
				s.alts = append(s.alts[:len(s.alts):len(s.alts)], f.Alts...)
			}
		}
		s.under = f.Under
		if !s.opaque && !pattern {
			s.fclass = e.fileClass(&s, f.Write, f.Delete, f.Recursive)
			if s.fclass.Class == "" && len(f.Alts) > 0 {
				s.fclass, s.maybe = e.altClass(fb, kind, &f, c.Cwd)
			}
			if (f.Recursive || f.Moved || f.Under) && (s.fclass.Class == "" || s.fclass.Class == shell.ClassDestructive) {
				if tc := e.treeClass(&s, &f, c.Cwd); tc.Class != "" {
					s.fclass = tc
				}
			}
			if f.Into && s.fclass.Class == "" {
				s.fclass = e.intoClass(&s)
			}
		}
		s.restrict = f.Remote || f.Runner
		if f.Remote && f.Write && s.fclass.Class == "" {
			if dir, ok := systemArea(s.texts[s.n-1]); ok {
				s.fclass = shell.ClassRisk{Class: shell.ClassDestructive, Reason: "writes " + s.texts[0] + " on the other machine, over its system files in " + dir, Token: s.texts[0]}
			}
		}
		if f.Named {
			// Named in inline code that writes files: perhaps only
			// read. A class asks (tampering too), and nothing else
			// is added to what the inline code already asks.
			s.restrict, s.maybe = true, s.fclass.Class == shell.ClassTampering
			s.fclass.Reason = mayVerb(s.fclass.Reason)
		}
		subs = append(subs, s)
		if f.Write && pattern {
			mayBe := shell.MayBeCriticalWritePath
			switch {
			case f.Picked:
				mayBe = shell.MayBeCriticalPickedPath
			case f.HidesDots:
				mayBe = shell.MayBeCriticalShellWrite
			}
			if code, reason, ok := mayBe(s.texts[s.n-1], e.home); ok && !hasRisk(d.Risks, code, s.texts[0]) {
				d.Risks = append(d.Risks, toolgate.Risk{Code: code, Severity: toolgate.SeverityCritical, Reason: reason, Subject: s.texts[0]})
			}
		} else if f.Write {
			// The analysis checked the path as written; only here is the
			// call's working directory known, so ".bashrc" run from the
			// home directory is caught through its absolute form.
			if code, reason, ok := shell.IsCriticalWritePath(s.texts[s.n-1], e.home); ok && !hasRisk(d.Risks, code, s.texts[0]) {
				d.Risks = append(d.Risks, toolgate.Risk{Code: code, Severity: toolgate.SeverityCritical, Reason: reason, Subject: s.texts[0]})
			}
		}
	}
	return subs
}

// maxOperands bounds the operands one call checks against the file rules
// (the analysis bounds its subjects, not their words): "xargs xargs …"
// 10,000 times once made 360,000 operand subjects.
const maxOperands = shell.DefaultSubjects

// reasonOperandBudget is the risk reason of a command with too many
// operands, worded when one has them: most processes never need it.
func reasonOperandBudget() string {
	return "the command has more than " + strconv.Itoa(maxOperands) +
		" operands to check against the file rules; it cannot be allowed by a rule and needs a human"
}

// operandSubjects adds, for a workspace with read or write deny or ask
// rules, a read and a write subject for every operand of every command
// that is not already a file subject: a file the tables do not know a
// command touches is still protected (DESIGN §3.5). They only restrict:
// an open or allowed result leaves them out of the decision. all is false
// when there were more than maxOperands operands.
func (e *Engine) operandSubjects(subs []subject, a *shell.Analysis, cwd string) (_ []subject, all bool) {
	left := maxOperands
	var seen wordSet
	for i := range a.Commands {
		// A file rule beats the table (DESIGN §3.5): of a known command
		// that sends data away, an operand its entry gives another role
		// (gh gist create .env, gh api -F x=@.env) is checked too, when
		// it is written like a path (a '.' or '/', no space: not a
		// title, a label or a message). The other known commands'
		// files are reported already; the rest of their words are
		// patterns and text.
		cmd := &a.Commands[i]
		known := shell.KnowsOperands(cmd.Name) && len(cmd.Paths) == 0
		if known && !shell.SendsOperands(cmd.Name, cmd.Effects) {
			continue
		}
		for k, n := 0, len(cmd.Args)+len(cmd.Paths); k < n; k++ {
			var arg string
			if k < len(cmd.Args) {
				arg = cmd.Args[k]
			} else {
				arg = cmd.Paths[k-len(cmd.Args)]
			}
			// An operand is a word bash expanded as a glob; a value cut out
			// of one, or a path in inline code, is read by the program,
			// whose globs may match dot-files.
			if k < 63 && cmd.Keys&(1<<k) != 0 {
				continue // a key the command logs in with (ssh -i KEY)
			}
			if k < 63 && cmd.Code&(1<<k) != 0 {
				continue // a program given inline (python3 -c CODE): its paths are cmd.Paths
			}
			if k < len(cmd.Args) && k == ghAPIEndpoint(cmd) {
				continue // gh api's endpoint (repos/O/R/actions/secrets), not a file
			}
			if k < len(cmd.Args) && serviceName(cmd, k) {
				continue // aws … --secret-id prod/db, vault kv list secret/: a name in the service
			}
			shellGlob := k < len(cmd.Args)
			if _, v, ok := strings.Cut(arg, "="); ok && v != "" {
				arg, shellGlob = v, false // if=.env, --data=DIR: the option's value
			}
			if len(arg) > 1 && (arg[0] == '@' || arg[0] == '<') {
				arg, shellGlob = arg[1:], false // -F x=@.env, -d @file: a file read for the value
			}
			if arg == "" || arg[0] == '-' || strings.ContainsAny(arg, "$`\x00") || known && (strings.ContainsAny(arg, " \t\n") || !strings.ContainsAny(arg, "./")) {
				continue
			}
			if k < len(cmd.Args) && bareName(cmd.Args[k]) && (k == 0 || !strings.HasPrefix(cmd.Args[k-1], "-")) {
				// A plain name in an operand's place, not an option's
				// value, which may name a file (--config secret).
				continue
			}
			// A glob operand is compared as a pattern even when an element
			// may expand to ".." (.*): its other expansions still count.
			pattern := strings.ContainsAny(arg, "*?[") && !strings.Contains(arg, "(") &&
				!(k < len(cmd.Literal) && cmd.Literal[k]) // quoted: the word as written
			if pattern && len(arg) > maxPatternBytes {
				continue // too long to compare; as before, not checked
			}
			if seen.has(arg) {
				continue // checked already: one subject per distinct word
			}
			if left--; left < 0 {
				return subs, false
			}
			seen.add(arg)
			if k < len(cmd.Args) && isFile(a.Files, arg) {
				// Reported already. A path inline code names is checked
				// as a read too: its file subject is the write the code
				// may make (python3 -c "open('secrets.txt')").
				continue
			}
			for _, fam := range [2]string{familyRead, familyWrite} {
				kind := toolgate.SubjectRead
				if fam == familyWrite {
					kind = toolgate.SubjectWrite
				}
				var s subject
				if pattern {
					// A glob operand (mytool *.env): a rule that may match
					// one of its expansions asks.
					s = e.patternSubject(subject{family: fam, tool: canonicalTool(fam)}, kind, arg, cwd, "", shellGlob && !a.DotGlob)
				} else {
					s = e.fileSubject(subject{family: fam, tool: canonicalTool(fam)}, kind, arg, cwd, "")
				}
				s.restrict, s.operand = true, true
				subs = append(subs, s)
			}
		}
	}
	return subs, true
}

// ghAPIEndpoint is the index in cmd.Args of gh api's endpoint, its first
// operand (after the options that take a value), or -1.
func ghAPIEndpoint(cmd *shell.Command) int {
	if cmd.Name != "gh" || len(cmd.Args) < 2 || cmd.Args[0] != "api" {
		return -1
	}
	for i := 1; i < len(cmd.Args); i++ {
		a := cmd.Args[i]
		switch a {
		case "-X", "--method", "-H", "--header", "-f", "--raw-field", "-F", "--field", "--input", "-p", "--preview",
			"-q", "--jq", "-t", "--template", "--hostname", "--cache":
			i++ // its value
			continue
		}
		if !strings.HasPrefix(a, "-") {
			return i
		}
	}
	return -1
}

// serviceName reports whether argument k of a service client names a
// thing in the service rather than a file: the value of an identifier
// option (--secret-id prod/db, --name, --role-arn, --key-id=…), or the
// path Vault reads, lists or writes (vault kv list secret/, vault read
// aws/creds/x). A file such a client reads is written as one (@file,
// file://…) or given to another option, and is still checked.
func serviceName(cmd *shell.Command, k int) bool {
	a := cmd.Args[k]
	if !shell.SendsOperands(cmd.Name, 0) && cmd.Name != "vault" {
		return false
	}
	opt, v, eq := strings.Cut(a, "=")
	if !eq {
		v = a
	}
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, ".") {
		return false // written as a file on this machine
	}
	if !eq {
		if k == 0 {
			return false
		}
		opt = cmd.Args[k-1]
	}
	if strings.HasPrefix(opt, "--") && !strings.Contains(opt, "file") && !strings.Contains(opt, "path") && !strings.Contains(opt, "dir") {
		for _, suffix := range [...]string{"-id", "-ids", "-arn", "-name", "-names"} {
			if strings.HasSuffix(opt, suffix) {
				return true
			}
		}
	}
	if cmd.Name != "vault" || strings.HasPrefix(v, "@") {
		return false
	}
	if eq {
		// vault's own options (-mount=secret, -field=password); its
		// files are certificates and keys (-ca-cert=, -client-key=).
		return strings.HasPrefix(opt, "-") && !strings.Contains(opt, "cert") && !strings.Contains(opt, "key") &&
			!strings.Contains(opt, "path") && !strings.Contains(opt, "file")
	}
	if strings.HasPrefix(a, "-") {
		return false
	}
	for i, w := range cmd.Args[:k] {
		switch w {
		case "kv", "metadata", "get", "list", "put", "patch", "delete", "destroy", "undelete", "rollback", "read", "write":
			continue
		}
		if !strings.HasPrefix(w, "-") || i == 0 {
			return false // an operand before it, or another subcommand
		}
	}
	return k > 0
}

// wordSet is a set of words that allocates only past its first eight.
type wordSet struct {
	few  [8]string
	n    int
	more map[string]bool
}

func (w *wordSet) has(s string) bool {
	for i := 0; i < w.n; i++ {
		if w.few[i] == s {
			return true
		}
	}
	return w.more[s]
}

func (w *wordSet) add(s string) {
	if w.n < len(w.few) {
		w.few[w.n], w.n = s, w.n+1
		return
	}
	if w.more == nil {
		w.more = map[string]bool{}
	}
	w.more[s] = true
}

// fileKey is what decides a file of the analysis: two files with the
// same key make the same subject.
type fileKey struct {
	path, dir, command                                                                      string
	write, static, glob, del, rec, into, under, picked, hides, moved, remote, runner, named bool
}

func keyOf(f *shell.File) fileKey {
	return fileKey{f.Path, f.Dir, f.Command, f.Write, f.Static, f.Glob, f.Delete, f.Recursive, f.Into, f.Under, f.Picked, f.HidesDots, f.Moved, f.Remote, f.Runner, f.Named}
}

// bareName reports whether a word is a plain name, letters, digits,
// "-" and "_" with no path, extension, dot or glob: a subcommand, an
// operation or a resource (aws secretsmanager list-secrets, gcloud …
// get-credentials, mytool secret), which a read rule written for file
// names ("*secret*") does not take for a file (DESIGN §3.1). A name the
// command table knows a command reads is a file subject of its own.
func bareName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// altClass is fileClass for a path known only when the command runs,
// judged at each static path it may be (f.Alts: "$f" after "f=.claude/x",
// ${D:-.claude}): the first class found, as a possibility, and whether
// it is tampering, which then asks in every mode.
func (e *Engine) altClass(base subject, kind toolgate.SubjectKind, f *shell.File, cwd string) (shell.ClassRisk, bool) {
	for _, alt := range f.Alts {
		s := e.fileSubject(base, kind, alt, cwd, f.Dir)
		if cr := e.fileClass(&s, f.Write, f.Delete, f.Recursive); cr.Class != "" {
			cr.Reason = mayVerb(cr.Reason)
			return cr, cr.Class == shell.ClassTampering
		}
	}
	return shell.ClassRisk{}, false
}

// shellVars is what the engine knows of the environment a shell call
// runs in: $PWD is the call's cwd, the rest what vars (Env.Vars) says; nil
// when it knows nothing.
func (e *Engine) shellVars(vars func(string) (string, bool), cwd string) shell.Vars {
	if vars == nil && cwd == "" {
		return nil
	}
	return func(name string) (string, bool, bool) {
		if name == "PWD" && cwd != "" {
			return cwd, true, true
		}
		if vars == nil {
			return "", false, false
		}
		v, set := vars(name)
		return v, set, true
	}
}

// unknownClass is the class of a file named through a variable whose
// value nobody knows: it may be any file, so it is judged as the
// protected files it may be. A read may read a secret, which no mode
// allows; a write may change the agent's or toolgate's configuration,
// which a person decides in every mode.
func unknownClass(f *shell.File) (shell.ClassRisk, bool) {
	if f.Write || f.Delete {
		return shell.ClassRisk{Class: shell.ClassTampering, Token: f.Path,
			Reason: "may write " + f.Path + ", whose value is not known here: the agent's or toolgate's configuration among the files it may be"}, true
	}
	return shell.ClassRisk{Class: shell.ClassCredential, Token: f.Path,
		Reason: "may read " + f.Path + ", whose value is not known here: a secret among the files it may be"}, false
}

// mayVerb turns a class reason about a file into a possibility: "writes
// X, which…" into "may write X, which…".
func mayVerb(reason string) string {
	for _, v := range [...]string{"reads ", "writes ", "overwrites ", "deletes "} {
		if rest, ok := strings.CutPrefix(reason, v); ok {
			return "may " + strings.TrimSuffix(v, "s ") + " " + rest
		}
	}
	return reason
}

// isFile reports whether p is already one of the analysis's files.
func isFile(files []shell.File, p string) bool {
	for i := range files {
		if files[i].Path == p {
			return true
		}
	}
	return false
}

func hasRisk(risks []toolgate.Risk, code, subject string) bool {
	for _, r := range risks {
		if r.Code == code && r.Subject == subject {
			return true
		}
	}
	return false
}

// commandText returns the shell command of a call: a string argument, or
// an argv array (Codex's shell tool) quoted back into one command line.
func commandText(args map[string]any, names []string) (string, bool) {
	for _, n := range names {
		switch v := args[n].(type) {
		case string:
			return v, true
		case []any:
			words := make([]string, 0, len(v))
			for _, w := range v {
				s, ok := w.(string)
				if !ok {
					return "", false
				}
				q, err := syntax.Quote(s, syntax.LangBash)
				if err != nil {
					return "", false
				}
				words = append(words, q)
			}
			if len(words) == 0 {
				return "", false
			}
			return strings.Join(words, " "), true
		}
	}
	return "", false
}

// suggest adds the "always" patterns that would allow the subjects that
// ask. If one of them can have none (an interpreter, a wrapper, an opaque
// command), no grant could allow the call and it is suggested nothing: it
// can only be approved once.
func (e *Engine) suggest(c *toolgate.Call, subs []subject, d *toolgate.Decision) {
	j := -1 // index of subs[i] in d.Subjects: hidden subjects are not there
	for i := range subs {
		if subs[i].hidden {
			continue
		}
		if j++; d.Subjects[j].Action != toolgate.Ask {
			continue
		}
		s := &subs[i]
		var sg toolgate.Suggestion
		switch {
		case s.cmd != nil:
			p, ok := e.shell.Suggest(*s.cmd)
			if !ok {
				d.Suggestions = d.Suggestions[:0]
				return
			}
			if !namesTokens(p, s) {
				// A wildcard would not cover the risky form: offer
				// exactly this command, which names it.
				p = escapeLiteral(s.texts[0])
			}
			sg = toolgate.Suggestion{Tool: c.Tool, Pattern: p, Exact: glob.QuoteMeta(s.texts[0])}
		case s.opaque:
			d.Suggestions = d.Suggestions[:0]
			return
		case s.kind == toolgate.SubjectTool:
			sg = toolgate.Suggestion{Tool: c.Tool, Pattern: "*", Exact: "*"}
		case s.kind == toolgate.SubjectWrite || s.kind == toolgate.SubjectRead:
			sg = toolgate.Suggestion{Tool: s.tool, Pattern: s.texts[0], Exact: glob.QuoteMeta(s.texts[0])}
		default:
			sg = toolgate.Suggestion{Tool: c.Tool, Pattern: s.texts[0], Exact: glob.QuoteMeta(s.texts[0])}
		}
		dup := false
		for _, x := range d.Suggestions {
			if x == sg {
				dup = true
				break
			}
		}
		if !dup {
			d.Suggestions = append(d.Suggestions, sg)
		}
	}
}

func (ix *subjectIndex) lastAny(rs *Ruleset, s *subject, args map[string]any, best int32) int32 {
	for k := 0; k < s.n; k++ {
		best = ix.last(rs, "", s.texts[k], s, args, true, best)
	}
	for _, t := range s.alts {
		best = ix.last(rs, "", t, s, args, false, best)
	}
	if s.inWS {
		best = ix.last(rs, wsMarker, s.ws, s, args, true, best)
	}
	return best
}

// fileClass returns the risk class of a file subject: credential access
// for reading a secret, tampering for writing the agent's configuration,
// destructive for deleting (or recursively changing) a path outside the
// workspace, or the workspace itself. The zero ClassRisk for none.
// searchClass classifies a search tool's path: searching a directory that
// holds credential files (a home, /home, /, ~/.config, /etc) reads them,
// and puts matching lines of keys and tokens in the agent's context.
func (e *Engine) searchClass(s *subject) shell.ClassRisk {
	abs := s.texts[s.n-1]
	if !path.IsAbs(abs) {
		abs = s.texts[0]
	}
	ent, ok := sensitive.Within(abs, e.home, sensitive.Credential)
	if !ok {
		return shell.ClassRisk{}
	}
	return shell.ClassRisk{Class: shell.ClassCredential, Reason: "searches " + s.texts[0] + ", which holds credential files (" + ent.Path + " " + ent.Reason + ")", Token: s.texts[0]}
}

// intoClass classifies a directory that receives files whose names the
// call does not show (an archive extracted into it, "cp -a SRC/. DEST",
// "cp -rT", "rsync -a SRC/ DEST/"): the one check every merging write
// meets. A directory at or above toolgate's own files is tampering,
// denied; one above agent configuration is tampering found as a
// possibility, which a person decides in every mode; a home directory, /,
// /etc or ~/.config holds start-up files, autostart entries and keys that
// the files may replace.
func (e *Engine) intoClass(s *subject) shell.ClassRisk {
	abs := s.texts[s.n-1]
	if !path.IsAbs(abs) {
		abs = s.texts[0]
	}
	for _, list := range [2][]string{e.protect, e.noWrite} {
		for _, p := range list {
			if p = path.Clean(filepath.ToSlash(p)); p != "" && p != "." && (abs == p || above(abs, p)) {
				return shell.ClassRisk{Class: shell.ClassTampering, Reason: "writes files the call does not name into " + s.texts[0] + ", where they may replace toolgate's own files (" + p + ")", Token: s.texts[0]}
			}
		}
	}
	if ent, ok := sensitive.Within(abs, e.home, sensitive.AgentConfig); ok {
		s.maybe = true
		return shell.ClassRisk{Class: shell.ClassTampering, Reason: "writes files the call does not name into " + s.texts[0] + ", where they may replace " + ent.Path + " (which " + ent.Reason + ")", Token: s.texts[0]}
	}
	// A repository's .git holds its hooks and config. (A project root
	// holds .claude/ too, but archives are extracted there every day:
	// only the names the call shows are checked there.)
	if path.Base(abs) == ".git" {
		s.maybe = true
		return shell.ClassRisk{Class: shell.ClassTampering, Reason: "writes files the call does not name into " + s.texts[0] + ", where they may replace the repository's hooks and config", Token: s.texts[0]}
	}
	ent, ok := sensitive.Within(abs, e.home, 0)
	if !ok {
		return shell.ClassRisk{}
	}
	return shell.ClassRisk{Class: shell.ClassPersistence, Reason: "writes files the call does not name into " + s.texts[0] + ", where they may replace " + ent.Path + " (which " + ent.Reason + ") and start-up files", Token: s.texts[0]}
}

func (e *Engine) fileClass(s *subject, write, del, recursive bool) shell.ClassRisk {
	// The path as given (~ expanded) and its absolute form say it all:
	// the other forms are relative views of the same file.
	abs := s.texts[s.n-1]
	for k := 0; k < 2; k++ {
		p := s.texts[0]
		if k == 1 {
			if abs == p || !path.IsAbs(abs) {
				break
			}
			p = abs
		}
		// Folded for case (".Claude/settings.json") for every tool's path:
		// Lookup allocates only for a path with capitals that matches no
		// entry as written.
		ent, ok := sensitive.Lookup(p, e.home)
		if !ok {
			continue
		}
		token := ent.Path
		if i := strings.IndexAny(token, "/*"); i > 0 {
			token = token[:i]
		}
		switch {
		case ent.Kind == sensitive.AgentConfig && write:
			return shell.ClassRisk{Class: shell.ClassTampering, Reason: "writes " + s.texts[0] + ", which " + ent.Reason, Token: token}
		case ent.Kind == sensitive.Credential && !write:
			return shell.ClassRisk{Class: shell.ClassCredential, Reason: "reads " + s.texts[0] + ", which " + ent.Reason, Token: token}
		case ent.Kind == sensitive.Credential && del:
			return shell.ClassRisk{Class: shell.ClassDestructive, Reason: "deletes " + s.texts[0] + ", which " + ent.Reason, Token: token}
		case ent.Kind == sensitive.Credential && write:
			// Emptying shell history hides what ran; overwriting a key or
			// token destroys it.
			return shell.ClassRisk{Class: shell.ClassDestructive, Reason: "overwrites " + s.texts[0] + ", which " + ent.Reason, Token: token}
		case ent.Kind == sensitive.SecuritySetting && write:
			return shell.ClassRisk{Class: shell.ClassPrivilege, Reason: "writes " + s.texts[0] + ", which " + ent.Reason, Token: token}
		case ent.Kind == sensitive.AuditLog && write:
			return shell.ClassRisk{Class: shell.ClassDestructive, Reason: "overwrites " + s.texts[0] + ", which " + ent.Reason, Token: token}
		case ent.Kind == sensitive.Autostart && write && !del:
			// Deleting one removes what would run; outside the workspace
			// it is destructive (placeClass).
			return shell.ClassRisk{Class: shell.ClassPersistence, Reason: "writes " + s.texts[0] + ", which " + ent.Reason, Token: token}
		}
	}
	return e.placeClass(s, del, recursive)
}

// treeClass classifies a command on a whole tree (rm -r, chmod -R, chown
// -R, an mv source) by what the tree holds, known from paths alone: a
// directory above toolgate's own files (the engine's protected paths) or
// above agent configuration in a home or at the root (~/.config holds
// ~/.config/toolgate; ~ holds ~/.copilot) is tampering; moving away the
// workspace or a directory above it, which holds the workspace's .git
// and agent configuration, is destructive, as deleting it is
// (placeClass). A tree deeper in the workspace (rm -rf src) may hold a
// nested repository only the file system knows of: the decision does not
// read the disk, so that stays a delete inside the workspace.
func (e *Engine) treeClass(s *subject, f *shell.File, cwd string) shell.ClassRisk {
	abs := s.texts[s.n-1]
	if !path.IsAbs(abs) {
		return shell.ClassRisk{}
	}
	verb := "deletes everything under "
	switch {
	case f.Under:
		verb = "deletes files under "
	case f.Moved:
		verb = "moves away everything under "
	case !f.Delete:
		verb = "changes the permissions of everything under "
	}
	// "/" and a home are the critical list's (rm -rf ~ asks with its own
	// reason whatever the rules say, DESIGN §3.4).
	wide := abs == "/" || abs == "/home" || abs == "/Users" || abs == "/root" || abs == e.home ||
		path.Dir(abs) == "/home" || path.Dir(abs) == "/Users"
	for _, list := range [2][]string{e.protect, e.noWrite} {
		if wide {
			break
		}
		for _, p := range list {
			if p = path.Clean(filepath.ToSlash(p)); p != "" && p != "." && above(abs, p) {
				return shell.ClassRisk{Class: shell.ClassTampering, Reason: verb + s.texts[0] + ", which holds toolgate's own files (" + p + ")", Token: s.texts[0]}
			}
		}
	}
	if ent, ok := sensitive.Within(abs, e.home, sensitive.AgentConfig); ok && !wide {
		return shell.ClassRisk{Class: shell.ClassTampering, Reason: verb + s.texts[0] + ", which holds " + ent.Path + " (that path " + ent.Reason + ")", Token: s.texts[0]}
	}
	if !f.Moved {
		return shell.ClassRisk{}
	}
	roots := append([]string{path.Clean(cwd)}, e.roots...)
	for _, r := range roots {
		if path.IsAbs(r) && (abs == r || above(abs, r)) {
			return shell.ClassRisk{Class: shell.ClassDestructive, Reason: verb + s.texts[0] + ", which holds the workspace " + r + " (its .git and agent configuration)", Token: s.texts[0]}
		}
	}
	return shell.ClassRisk{}
}

// above reports whether directory dir lies above p (p is under it).
func above(dir, p string) bool {
	if dir == "/" {
		return p != "/" && path.IsAbs(p)
	}
	return len(p) > len(dir) && strings.HasPrefix(p, dir) && p[len(dir)] == '/'
}

// placeClass is the destructive class of deleting (or recursively
// changing) a path outside the workspace, or the workspace itself.
func (e *Engine) placeClass(s *subject, del, recursive bool) shell.ClassRisk {
	if !del && !recursive {
		return shell.ClassRisk{}
	}
	where, outside := e.outsideWorkspace(s)
	if !outside {
		return shell.ClassRisk{}
	}
	verb := "deletes "
	if !del {
		verb = "changes the permissions of everything under "
	} else if recursive {
		verb = "deletes everything under "
	} else if s.under {
		verb = "deletes files under "
	}
	// A rule names the risky form when it names the directory the target
	// is in ("rm -rf /home/u/old-*" for /home/u/old-proj).
	token := path.Dir(s.texts[0])
	if token == "." || token == "/" {
		token = s.texts[0]
	}
	return shell.ClassRisk{Class: shell.ClassDestructive, Reason: verb + s.texts[0] + ", " + where, Token: token}
}

// outsideWorkspace reports whether a file subject lies outside the
// workspace (the call's working directory and the engine's roots) and not
// in a temp or cache directory, or is the workspace root itself; where
// says which.
func (e *Engine) outsideWorkspace(s *subject) (string, bool) {
	p := s.texts[s.n-1]
	if s.under && !strings.HasSuffix(p, "/") {
		p += "/" // only files under it: find /tmp -name x -delete
	}
	if s.inWS && !strings.HasPrefix(s.texts[0], "~") && !strings.HasPrefix(s.texts[0], "$") {
		if s.ws == "." {
			return "which is the workspace itself", true
		}
		return "", false
	}
	for _, t := range tempDirs {
		if strings.HasPrefix(p, t) {
			return "", false
		}
	}
	for _, t := range homeCaches {
		if e.home != "" && strings.HasPrefix(p, e.home+t) || strings.HasPrefix(p, "~"+t) {
			return "", false
		}
	}
	return reasonOutside, true
}

const reasonOutside = "which is outside the workspace"

// tempDirs and homeCaches hold files nobody keeps: deleting them is not
// destructive.
var (
	tempDirs   = [...]string{"/tmp/", "/var/tmp/", "/dev/shm/", "/private/tmp/", "/private/var/folders/", "/var/folders/", "/var/cache/"}
	homeCaches = [...]string{"/.cache/", "/Library/Caches/", "/.npm/_cacache/", "/go/pkg/mod/cache/"}
)

// judgeOperand decides an operand of a command the file tables do not
// describe, which may or may not be a file: only a rule that names files
// (not a catch-all) and denies or asks counts; for writes, only the
// workspace's own rules, since the command may well only read it.
func (e *Engine) judgeOperand(s *subject, args map[string]any, env *Env, agent *Ruleset) verdict {
	layers := [3]*Ruleset{e.managed, agent, e.static}
	for i, rs := range layers {
		if s.kind == toolgate.SubjectWrite && i < 2 {
			continue
		}
		r := rs.find(s, nil)
		if r == nil || r.catchAll || r.any || r.ref.Action == toolgate.Allow {
			continue
		}
		return verdict{action: r.ref.Action, rule: r, reason: r.reasonFor(s)}
	}
	return verdict{action: toolgate.NoAction}
}

// classRisks appends the risk classes of a subject to risks: the decision
// names them (DESIGN §3.5). A tampering deny names its file in its reason,
// and a critical risk (rm -rf /) already says more than its class.
func (e *Engine) classRisks(risks []toolgate.Risk, s *subject, text string) []toolgate.Risk {
	for i := range risks {
		if risks[i].Severity == toolgate.SeverityCritical {
			return risks // the critical risk asks already, and says more
		}
	}
	for _, cr := range s.classes {
		risks = append(risks, toolgate.Risk{Code: string(cr.Class), Severity: toolgate.SeverityClass, Reason: classReason(cr), Subject: text})
	}
	if s.fclass.Class != "" && (s.fclass.Class != shell.ClassTampering || s.maybe) {
		risks = append(risks, toolgate.Risk{Code: string(s.fclass.Class), Severity: toolgate.SeverityClass, Reason: classReason(s.fclass), Subject: text})
	}
	return risks
}

// onlyClassRisks reports whether risks holds no critical risk and no
// unprefixable construct: a risk class alone still lets a person grant
// a pattern that names the risky form.
func onlyClassRisks(risks []toolgate.Risk) bool {
	for i := range risks {
		if risks[i].Severity != toolgate.SeverityClass {
			return false
		}
	}
	return true
}

// namesTokens reports whether pattern names every risk token of s, so a
// grant of it would cover s.
func namesTokens(pattern string, s *subject) bool {
	for i := range s.classes {
		if !namesWord(pattern, s.classes[i].Token) {
			return false
		}
	}
	return s.fclass.Class == "" || namesWord(pattern, s.fclass.Token)
}

// anyString reports whether v holds a string anywhere (a value, in a
// list or in a nested object): an argument that could name a path.
func anyString(v any) bool {
	switch v := v.(type) {
	case string:
		return true
	case []any:
		for _, x := range v {
			if anyString(x) {
				return true
			}
		}
	case map[string]any:
		for _, x := range v {
			if anyString(x) {
				return true
			}
		}
	}
	return false
}
