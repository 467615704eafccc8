package policy

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate"
)

// configKeys are the top-level keys of toolgate.yaml, in the order they are
// listed in error messages.
var configKeys = []string{
	"mode", "rules", "permissions", "tools", "agents", "managed", "arity",
	"question_tools", "tests", "workspace_roots",
	// Read by the server, not by the policy loader: accepted and ignored
	// here (their contents are checked where they are used).
	"server", "storage", "notify", "tokens", "toolConfirmation",
}

// declKinds are the tool declKinds a declaration may name.
var declKinds = []Kind{KindShell, KindRead, KindWrite, KindGlob, KindGrep, KindSkill, KindURL, KindNone}

// ParseConfig parses a toolgate.yaml config file. Its policy keys are:
//
//   - mode: the approval mode (any alias toolgate.ParseMode knows);
//   - rules: a host-config list: "read_file", "Bash(git status)",
//     "Bash(git diff *)" (allow rules), or objects {tool, pattern?,
//     action? (default allow; allow, ask, deny or sandbox), when?: {arg: glob}, reason?};
//   - permissions: the same list, or a Claude Code permissions object
//     {allow, ask, deny, defaultMode} (see ParseClaudeSettings);
//   - tools: approvalMode (a mode), approval {tool: allow|deny|prompt}
//     (per-tool user policy) and declare {tool: {kind, tier, args,
//     question}};
//   - agents: {agentType: workspace-format mapping}, the agent layers;
//   - managed: a workspace-format mapping, the admin veto layer;
//   - arity: {"docker compose": 3}, additions to the arity table;
//   - question_tools: names of question tools;
//   - tests: examples that must hold.
//
// server, storage, notify and tokens are accepted and ignored here. Rules
// are ordered rules:, then permissions (allow, ask, deny), then
// tools.approval, so per-tool user policy wins (last match wins). An empty
// file is a valid, empty config. name is used in Sources and errors.
func ParseConfig(name string, src []byte) (*Document, error) {
	root, err := parseYAML(name, src)
	if err != nil {
		return nil, err
	}
	doc := &Document{Path: name}
	if root == nil || root.kind == kNull {
		return doc, nil
	}
	abs := name
	if a, err := filepath.Abs(name); err == nil && !filepath.IsAbs(name) {
		abs = a
	}
	c := &configReader{reader: reader{file: name, root: filepath.ToSlash(filepath.Dir(abs))}, doc: doc}
	if err := c.parse(root); err != nil {
		return nil, err
	}
	return doc, nil
}

type configReader struct {
	reader
	doc      *Document
	modeNode *docNode // where the mode was set
}

func (c *configReader) parse(root *docNode) error {
	if err := c.mapping(root, "top level"); err != nil {
		return err
	}
	for _, k := range root.keys {
		if _, err := c.key(k, "top level"); err != nil {
			return err
		}
	}
	if err := c.checkKeys(root, "top level", configKeys...); err != nil {
		return err
	}
	if err := c.noDups(root, "top level"); err != nil {
		return err
	}
	var permRules, approvalRules []Rule
	for i, k := range root.keys {
		v := root.vals[i]
		var err error
		switch k.text {
		case "mode":
			err = c.setMode(v, "mode")
		case "rules":
			var rs []Rule
			if rs, err = c.hostList(v, "rules"); err == nil {
				c.doc.Rules = append(c.doc.Rules, rs...)
			}
		case "permissions":
			permRules, err = c.permissions(v)
		case "tools":
			approvalRules, err = c.tools(v)
		case "agents":
			err = c.agents(v)
		case "managed":
			if v.kind != kNull {
				if c.doc.Managed, err = c.ruleMap(v, "managed", nil); err == nil {
					err = noSandboxRules(c.doc.Managed, "managed")
				}
			}
		case "arity":
			err = c.arity(v)
		case "question_tools":
			err = c.questionTools(v)
		case "tests":
			if v.kind != kNull {
				c.doc.Tests, err = c.tests(v, "tests")
			}
		case "workspace_roots":
			err = c.workspaceRoots(v)
		}
		if err != nil {
			return err
		}
	}
	c.doc.Rules = append(c.doc.Rules, permRules...)
	c.doc.Rules = append(c.doc.Rules, approvalRules...)
	return nil
}

// noDups reports a key that appears twice in a mapping.
func (c *configReader) noDups(n *docNode, what string) error {
	seen := make(map[string]*docNode, len(n.keys))
	for _, k := range n.keys {
		if prev, ok := seen[k.text]; ok {
			return c.errAt(k, "%s: key %q appears twice (first at line %d)", what, k.text, prev.line)
		}
		seen[k.text] = k
	}
	return nil
}

func (c *configReader) setMode(v *docNode, what string) error {
	m, err := c.mode(v, what)
	if err != nil {
		return err
	}
	if c.doc.Mode != nil && *c.doc.Mode != *m {
		return c.errAt(v, "%s: mode %s conflicts with mode %s set at line %d; set the mode once", what, *m, *c.doc.Mode, c.modeNode.line)
	}
	c.doc.Mode, c.modeNode = m, v
	return nil
}

// hostList reads a host-config list of allow entries.
func (c *configReader) hostList(n *docNode, what string) ([]Rule, error) {
	if n.kind == kNull {
		return nil, nil
	}
	if err := c.list(n, what); err != nil {
		return nil, err
	}
	var rules []Rule
	for i, it := range n.items {
		// Not fmt: the hook reads every rule of a config on every call.
		r, err := c.hostEntry(it, what+"["+strconv.Itoa(i)+"]")
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// hostEntry reads "Tool", "Tool(pattern)" or {tool, pattern?, action?,
// when?, reason?}.
func (c *configReader) hostEntry(n *docNode, at string) (Rule, error) {
	rule := Rule{Pattern: "*", Action: toolgate.Allow, Source: c.src(n)}
	switch n.kind {
	case kScalar:
		tool, spec, hasSpec, msg := splitEntry(n.text)
		if msg != "" {
			return rule, c.errAt(n, "%s: %s", at, msg)
		}
		rule.Tool = tool
		if hasSpec {
			rule.Pattern = spec
		}
	case kMap:
		if err := c.checkKeys(n, at, "tool", "pattern", "action", "when", "reason"); err != nil {
			return rule, err
		}
		tn := n.get("tool")
		if tn == nil {
			return rule, c.errAt(n, "%s: missing \"tool\"", at)
		}
		s, err := c.nonEmpty(tn, at+".tool")
		if err != nil {
			return rule, err
		}
		tool, spec, hasSpec, msg := splitEntry(s)
		if msg != "" {
			return rule, c.errAt(tn, "%s.tool: %s", at, msg)
		}
		rule.Tool = tool
		if hasSpec {
			rule.Pattern = spec
		}
		if pn := n.get("pattern"); pn != nil {
			if hasSpec {
				return rule, c.errAt(pn, "%s: pattern given twice, in tool %q and in pattern: keep one", at, s)
			}
			if rule.Pattern, err = c.nonEmpty(pn, at+".pattern"); err != nil {
				return rule, err
			}
		}
		if an := n.get("action"); an != nil {
			if rule.Action, rule.Sandbox, err = c.ruleAction(an, at+".action"); err != nil {
				return rule, err
			}
		}
		if rn := n.get("reason"); rn != nil {
			if rule.Reason, err = c.str(rn, at+".reason"); err != nil {
				return rule, err
			}
		}
		if wn := n.get("when"); wn != nil {
			if err := c.mapping(wn, at+".when"); err != nil {
				return rule, err
			}
			for i, k := range wn.keys {
				arg, err := c.key(k, at+".when")
				if err != nil {
					return rule, err
				}
				pat, err := c.str(wn.vals[i], at+".when."+arg)
				if err != nil {
					return rule, err
				}
				rule.When = append(rule.When, Cond{Arg: arg, Pattern: pat})
			}
			slices.SortStableFunc(rule.When, func(a, b Cond) int { return strings.Compare(a.Arg, b.Arg) })
		}
	default:
		return rule, c.errAt(n, "%s: want \"Tool\", \"Tool(pattern)\" or {tool, pattern, action, when, reason}, got %s", at, n.describe())
	}
	if err := c.checkRule(n, at, rule); err != nil {
		return rule, err
	}
	return rule, nil
}

// permissions reads the host-config list form or the Claude Code object
// form.
func (c *configReader) permissions(n *docNode) ([]Rule, error) {
	switch n.kind {
	case kNull:
		return nil, nil
	case kList:
		return c.hostList(n, "permissions")
	case kMap:
		rules, mode, err := c.claudePermissions(n, "permissions", true)
		if err != nil {
			return nil, err
		}
		if mode != nil {
			if err := c.setMode(n.get("defaultMode"), "permissions.defaultMode"); err != nil {
				return nil, err
			}
		}
		return rules, nil
	}
	return nil, c.errAt(n, "permissions: want a list of entries or a Claude Code object {allow, ask, deny}, got %s", n.describe())
}

// tools reads tools.approvalMode, tools.approval and tools.declare; it
// returns the approval rules, which go last.
func (c *configReader) tools(n *docNode) ([]Rule, error) {
	if n.kind == kNull {
		return nil, nil
	}
	if err := c.mapping(n, "tools"); err != nil {
		return nil, err
	}
	if err := c.checkKeys(n, "tools", "approvalMode", "approval", "declare"); err != nil {
		return nil, err
	}
	if err := c.noDups(n, "tools"); err != nil {
		return nil, err
	}
	if v := n.get("approvalMode"); v != nil {
		if err := c.setMode(v, "tools.approvalMode"); err != nil {
			return nil, err
		}
	}
	if v := n.get("declare"); v != nil && v.kind != kNull {
		if err := c.declare(v); err != nil {
			return nil, err
		}
	}
	v := n.get("approval")
	if v == nil || v.kind == kNull {
		return nil, nil
	}
	if err := c.mapping(v, "tools.approval"); err != nil {
		return nil, err
	}
	var rules []Rule
	for i, k := range v.keys {
		tool, err := c.key(k, "tools.approval")
		if err != nil {
			return nil, err
		}
		at := "tools.approval." + tool
		val := v.vals[i]
		if val.kind != kScalar {
			return nil, c.errAt(val, "%s: want allow, deny or prompt, got %s", at, val.describe())
		}
		a, err := toolgate.ParseAction(val.text)
		if err != nil {
			return nil, c.errAt(val, "%s: invalid value %q (want allow, deny or prompt)", at, val.text)
		}
		rule := Rule{Tool: tool, Pattern: "*", Action: a, Source: c.src(k)}
		if err := c.checkRule(k, at, rule); err != nil {
			return nil, err
		}
		rules = append(rules, rule)
	}
	return rules, nil
}

func (c *configReader) declare(n *docNode) error {
	if err := c.mapping(n, "tools.declare"); err != nil {
		return err
	}
	if err := c.noDups(n, "tools.declare"); err != nil {
		return err
	}
	if c.doc.Tools == nil {
		c.doc.Tools = make(map[string]ToolSpec, len(n.keys))
	}
	for i, k := range n.keys {
		tool, err := c.key(k, "tools.declare")
		if err != nil {
			return err
		}
		at := "tools.declare." + tool
		v := n.vals[i]
		spec := ToolSpec{Kind: KindNone, Source: c.src(k)}
		if v.kind != kNull {
			if err := c.mapping(v, at); err != nil {
				return err
			}
			if err := c.checkKeys(v, at, "kind", "tier", "args", "question", "family"); err != nil {
				return err
			}
			if kn := v.get("kind"); kn != nil {
				s, err := c.str(kn, at+".kind")
				if err != nil {
					return err
				}
				if !slices.Contains(declKinds, Kind(s)) {
					names := make([]string, len(declKinds))
					for i, k := range declKinds {
						names[i] = string(k)
					}
					return c.errAt(kn, "%s.kind: unknown kind %q (want %s)", at, s, strings.Join(names, ", "))
				}
				spec.Kind = Kind(s)
			}
			if tn := v.get("tier"); tn != nil {
				s, err := c.str(tn, at+".tier")
				if err != nil {
					return err
				}
				if spec.Tier, err = toolgate.ParseTier(s); err != nil {
					return c.errAt(tn, "%s.tier: unknown tier %q (want read, write or exec; info, edit and mcp are aliases)", at, s)
				}
			}
			if an := v.get("args"); an != nil && an.kind != kNull {
				if err := c.list(an, at+".args"); err != nil {
					return err
				}
				for j, it := range an.items {
					s, err := c.nonEmpty(it, fmt.Sprintf("%s.args[%d]", at, j))
					if err != nil {
						return err
					}
					spec.Args = append(spec.Args, s)
				}
			}
			if qn := v.get("question"); qn != nil {
				if spec.Question, err = c.boolean(qn, at+".question"); err != nil {
					return err
				}
			}
			if fn := v.get("family"); fn != nil {
				if spec.Family, err = c.nonEmpty(fn, at+".family"); err != nil {
					return err
				}
			}
		}
		c.doc.Tools[tool] = spec
	}
	return nil
}

func (c *configReader) agents(n *docNode) error {
	if n.kind == kNull {
		return nil
	}
	if err := c.mapping(n, "agents"); err != nil {
		return err
	}
	if err := c.noDups(n, "agents"); err != nil {
		return err
	}
	c.doc.Agents = make(map[string][]Rule, len(n.keys))
	for i, k := range n.keys {
		typ, err := c.key(k, "agents")
		if err != nil {
			return err
		}
		var rules []Rule
		if v := n.vals[i]; v.kind != kNull {
			if rules, err = c.ruleMap(v, "agents."+typ, nil); err != nil {
				return err
			}
		}
		c.doc.Agents[typ] = rules
	}
	return nil
}

func (c *configReader) arity(n *docNode) error {
	if n.kind == kNull {
		return nil
	}
	if err := c.mapping(n, "arity"); err != nil {
		return err
	}
	c.doc.Arity = make(map[string]int, len(n.keys))
	for i, k := range n.keys {
		cmd, err := c.key(k, "arity")
		if err != nil {
			return err
		}
		cmd = strings.Join(strings.Fields(cmd), " ")
		if cmd == "" {
			return c.errAt(k, "arity: empty command")
		}
		a, err := c.posInt(n.vals[i], "arity."+cmd)
		if err != nil {
			return err
		}
		c.doc.Arity[cmd] = a
	}
	return nil
}

func (c *configReader) questionTools(n *docNode) error {
	if n.kind == kNull {
		return nil
	}
	if err := c.list(n, "question_tools"); err != nil {
		return err
	}
	for i, it := range n.items {
		s, err := c.nonEmpty(it, fmt.Sprintf("question_tools[%d]", i))
		if err != nil {
			return err
		}
		c.doc.QuestionTools = append(c.doc.QuestionTools, s)
	}
	return nil
}

// workspaceRoots reads workspace_roots: absolute directories (or ~/…)
// that count as inside the workspace besides each call's cwd, so the
// default write rules allow writing there ("$WORKSPACE/").
func (c *configReader) workspaceRoots(v *docNode) error {
	if v.kind == kNull {
		return nil
	}
	if err := c.list(v, "workspace_roots"); err != nil {
		return err
	}
	for i, it := range v.items {
		at := fmt.Sprintf("workspace_roots[%d]", i)
		d, err := c.str(it, at)
		if err != nil {
			return err
		}
		if !strings.HasPrefix(d, "/") && d != "~" && !strings.HasPrefix(d, "~/") {
			return c.errAt(it, "%s: %q is not an absolute directory (or ~/…)", at, d)
		}
		if path.Clean(d) == "/" {
			return c.errAt(it, "%s: / would make every write an in-workspace write", at)
		}
		c.doc.Roots = append(c.doc.Roots, d)
	}
	return nil
}

// noSandboxRules refuses the action "sandbox" in a veto layer (what):
// the managed layer only restricts, and a confined allow is an allow.
func noSandboxRules(rules []Rule, what string) error {
	for _, r := range rules {
		if r.Sandbox {
			return &LoadError{File: r.Source.File, Line: r.Source.Line,
				Msg: fmt.Sprintf("%s: the action %q allows (confined) and %s rules only restrict: use ask or deny", what, SandboxAction, what)}
		}
	}
	return nil
}
