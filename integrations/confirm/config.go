package confirm

import (
	"fmt"
	"math"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/toolgate/toolgate"
)

// Confirmation modes (seed 004's toolConfirmation.mode).
const (
	// ModeEventBased asks a human through the event stream: toolgate's
	// default mode.
	ModeEventBased = "event-based"
	// ModeAutoApprove approves without asking: toolgate's yolo mode.
	ModeAutoApprove = "auto-approve"
	// ModeAutoDeny denies without asking: toolgate's auto-deny mode.
	ModeAutoDeny = "auto-deny"
)

// Storage types for remembered approvals (toolConfirmation.allowedToolsStorage).
const (
	// StorageStorage keeps remembered approvals as persisted grants: they
	// outlive a restart until revoked. The default.
	StorageStorage = "storage"
	// StorageMemory keeps them only while this gateway process runs: they
	// are revoked when the process stops and, after a crash, when it
	// starts again.
	StorageMemory = "memory"
)

// DefaultTimeout is how long a confirmation waits for an answer before
// the call is denied (seed 004's 30 seconds).
const DefaultTimeout = 30 * time.Second

// Config is seed 004's toolConfirmation section. The zero value is the
// seed's default: event-based, 30 seconds, persistent storage.
type Config struct {
	// Mode is event-based, auto-approve or auto-deny; empty leaves each
	// session's mode as the gateway's config sets it (event-based unless
	// told otherwise).
	Mode string
	// Timeout is how long a submitted call waits for an answer (default
	// 30 s); it then is denied.
	Timeout time.Duration
	// AllowedToolsStorage is storage (default) or memory.
	AllowedToolsStorage string
}

// withDefaults fills the defaults and checks the values.
func (c Config) withDefaults() (Config, error) {
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Timeout < 0 {
		return c, fmt.Errorf("toolConfirmation.timeout: %s is negative", c.Timeout)
	}
	if c.AllowedToolsStorage == "" {
		c.AllowedToolsStorage = StorageStorage
	}
	if c.AllowedToolsStorage != StorageStorage && c.AllowedToolsStorage != StorageMemory {
		return c, fmt.Errorf("toolConfirmation.allowedToolsStorage: %q is not storage or memory", c.AllowedToolsStorage)
	}
	if _, err := c.mode(); err != nil {
		return c, err
	}
	return c, nil
}

// mode returns the toolgate mode the confirmation mode stands for, and
// false when the config sets none.
func (c Config) mode() (*toolgate.Mode, error) {
	var m toolgate.Mode
	switch c.Mode {
	case "":
		return nil, nil
	case ModeEventBased:
		m = toolgate.ModeDefault
	case ModeAutoApprove:
		m = toolgate.ModeYolo
	case ModeAutoDeny:
		m = toolgate.ModeAutoDeny
	default:
		return nil, fmt.Errorf("toolConfirmation.mode: %q is not event-based, auto-approve or auto-deny", c.Mode)
	}
	return &m, nil
}

// yamlConfig is the section as written: the timeout in milliseconds.
type yamlConfig struct {
	Mode                *string  `yaml:"mode"`
	Timeout             *float64 `yaml:"timeout"`
	AllowedToolsStorage *string  `yaml:"allowedToolsStorage"`
}

// ParseConfig reads the toolConfirmation section of a YAML file (an
// agent.yml or toolgate.yaml; other keys are ignored). A file without the
// section gives the defaults. Errors name the file, line and field.
func ParseConfig(name string, src []byte) (Config, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	var c Config
	if len(root.Content) == 0 {
		return c.withDefaults()
	}
	doc := root.Content[0]
	if doc.Kind != yaml.MappingNode {
		return Config{}, fmt.Errorf("%s:%d: want a mapping at the top level", name, doc.Line)
	}
	var sec *yaml.Node
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if doc.Content[i].Value == "toolConfirmation" {
			sec = doc.Content[i+1]
		}
	}
	if sec == nil || sec.Kind == yaml.ScalarNode && sec.Tag == "!!null" {
		return c.withDefaults()
	}
	if sec.Kind != yaml.MappingNode {
		return Config{}, fmt.Errorf("%s:%d: toolConfirmation: want a mapping", name, sec.Line)
	}
	for i := 0; i+1 < len(sec.Content); i += 2 {
		switch k := sec.Content[i]; k.Value {
		case "mode", "timeout", "allowedToolsStorage":
		default:
			return Config{}, fmt.Errorf("%s:%d: toolConfirmation: unknown key %q (want mode, timeout or allowedToolsStorage)", name, k.Line, k.Value)
		}
	}
	var y yamlConfig
	if err := sec.Decode(&y); err != nil {
		return Config{}, fmt.Errorf("%s:%d: toolConfirmation: %w", name, sec.Line, err)
	}
	if y.Mode != nil {
		c.Mode = *y.Mode
	}
	if y.AllowedToolsStorage != nil {
		c.AllowedToolsStorage = *y.AllowedToolsStorage
	}
	if y.Timeout != nil {
		ms := *y.Timeout
		if ms <= 0 || math.IsInf(ms, 0) || math.IsNaN(ms) || ms > float64(24*time.Hour/time.Millisecond) {
			return Config{}, fmt.Errorf("%s:%d: toolConfirmation.timeout: want milliseconds between 1 and 86400000, got %v", name, sec.Line, ms)
		}
		c.Timeout = time.Duration(ms * float64(time.Millisecond))
	}
	c, err := c.withDefaults()
	if err != nil {
		return Config{}, fmt.Errorf("%s:%d: %w", name, sec.Line, err)
	}
	return c, nil
}
