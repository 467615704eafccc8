package hookcli

import (
	"flag"
	"fmt"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/clibase"
)

// ModeFlags are the seeds' mode switches, besides --mode: seed 003's
// --yolo and --auto-approve force yolo for the session, seed 000's
// --force starts in Force (yolo too).
type ModeFlags struct {
	yolo, autoApprove, force bool
}

// Register adds the flags to fs.
func (m *ModeFlags) Register(fs *flag.FlagSet) {
	fs.BoolVar(&m.yolo, "yolo", false, "yolo mode (seed 003): no prompts from the built-in defaults; secret denies, the managed layer and rules you wrote still hold")
	fs.BoolVar(&m.autoApprove, "auto-approve", false, "the same as --yolo (seed 003's flag, seed 004's mode)")
	fs.BoolVar(&m.force, "force", false, "the same as --yolo (seed 000's Force)")
}

// Set reports whether any of the switches was given.
func (m *ModeFlags) Set() bool { return m.yolo || m.autoApprove || m.force }

// Resolve returns the mode the flags and a --mode value ask for, or nil
// for none. Two switches that disagree are a usage error.
func (m *ModeFlags) Resolve(mode string) (*toolgate.Mode, error) {
	var out *toolgate.Mode
	if mode != "" {
		v, err := toolgate.ParseMode(mode)
		if err != nil {
			return nil, clibase.BadInput(fmt.Errorf("--mode: %w", err))
		}
		out = &v
	}
	if m.yolo || m.autoApprove || m.force {
		if out != nil && *out != toolgate.ModeYolo {
			return nil, clibase.UsageErrorf("--mode %s contradicts --yolo/--auto-approve/--force", mode)
		}
		y := toolgate.ModeYolo
		out = &y
	}
	return out, nil
}
