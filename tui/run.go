package tui

import (
	"context"
	"io"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/toolgate/toolgate"
)

// Options configure Run.
type Options struct {
	// Target names the gateway in the header.
	Target string
	// NoColor draws without color (NO_COLOR).
	NoColor bool
	// Filter limits the approvals shown to a session or workspace.
	Filter toolgate.EventFilter
}

// Run shows the terminal approver on in/out until the user quits or ctx
// ends.
func Run(ctx context.Context, g Gateway, in io.Reader, out io.Writer, o Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := lipgloss.NewRenderer(out)
	m := newModel(ctx, g, o.Target, newStyles(r, o.NoColor), time.Now())
	p := tea.NewProgram(m, tea.WithInput(in), tea.WithOutput(out), tea.WithAltScreen(), tea.WithContext(ctx))
	go follow(ctx, g, o.Filter, p.Send)
	_, err := p.Run()
	if m.fatal != nil {
		return m.fatal
	}
	if ctx.Err() != nil && err != nil {
		return nil
	}
	return err
}

// follow streams events into send, reconnecting with backoff and resuming
// after the last sequence seen, so no resolution is missed; each
// (re)connection replays the approvals still pending.
func follow(ctx context.Context, g Gateway, f toolgate.EventFilter, send func(tea.Msg)) {
	backoff := 250 * time.Millisecond
	for ctx.Err() == nil {
		events, errc := g.Events(ctx, f)
		// The stream says nothing until there is an event; a stream that
		// has not failed after a moment is live.
		liveTimer := time.AfterFunc(500*time.Millisecond, func() { send(connMsg{live: true}) })
		got := false
		for e := range events {
			if !got {
				got = true
				if liveTimer.Stop() {
					send(connMsg{live: true})
				}
				backoff = 250 * time.Millisecond
			}
			if e.Seq > f.AfterSeq && !e.Replay {
				f.AfterSeq = e.Seq
			}
			send(eventMsg(e))
		}
		liveTimer.Stop()
		err := <-errc
		if ctx.Err() != nil {
			return
		}
		if c := toolgate.ErrorCodeOf(err); c == toolgate.EUnauthorized || c == toolgate.EForbidden {
			send(fatalMsg{err}) // retrying cannot help: the credential is wrong
			return
		}
		send(connMsg{live: false, err: err})
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 10*time.Second)
	}
}
