package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/gatewaycli"
)

// runPair prints a one-time link and its QR code that sign a device (a
// phone) in to the web inbox as an approver.
func runPair(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := clibase.NewFlagSet("pair", stderr)
	var g gatewaycli.Flags
	g.Register(fs)
	label := fs.String("label", "", "a `name` for the device, as the devices list shows it")
	ttl := fs.Duration("ttl", 30*24*time.Hour, "how long the device stays signed in")
	public := fs.String("public-url", "", "the gateway's `URL` as the device reaches it (default --url)")
	noQR := fs.Bool("no-qr", false, "print the link only")
	if err := clibase.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return clibase.UsageErrorf("pair takes flags only, got %q", fs.Arg(0))
	}
	c, err := g.Client()
	if err != nil {
		return err
	}
	p, err := c.Pair(ctx, client.PairRequest{Label: *label, TTL: ttl.String(), PublicURL: *public})
	if err != nil {
		return err
	}
	if g.JSON {
		return json.NewEncoder(stdout).Encode(p)
	}
	fmt.Fprintf(stdout, "Open this link on the device before %s (it works once):\n\n    %s\n\n",
		p.ExpiresAt.Local().Format("15:04:05"), p.URL)
	if !*noQR {
		q, err := qrcode.New(p.URL, qrcode.Low)
		if err != nil {
			return fmt.Errorf("qr code: %w", err)
		}
		fmt.Fprintln(stdout, q.ToSmallString(false))
	}
	fmt.Fprintf(stdout, "The device stays signed in as an approver for %s. See devices with: toolgate devices list\n", p.DeviceTTL)
	return nil
}

// runDevices lists and revokes signed-in browsers and paired devices.
func runDevices(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return gatewaycli.Subcommands("devices", args, stdout, map[string]gatewaycli.Sub{
		"list": {Summary: "list signed-in browsers and paired devices", Run: func(args []string) error {
			fs := clibase.NewFlagSet("devices list", stderr)
			var g gatewaycli.Flags
			g.Register(fs)
			if err := clibase.ParseFlags(fs, args); err != nil {
				return err
			}
			c, err := g.Client()
			if err != nil {
				return err
			}
			ds, err := c.Devices(ctx)
			if err != nil {
				return err
			}
			if g.JSON {
				return json.NewEncoder(stdout).Encode(ds)
			}
			tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tDEVICE\tTOKEN\tKIND\tLAST SEEN\tEXPIRES")
			for _, d := range ds {
				kind := "browser"
				switch {
				case d.Pending:
					kind = "pairing link (unused)"
				case d.Paired:
					kind = "paired device"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.ID, d.Label, d.Token, kind,
					d.LastSeen.Local().Format(time.DateTime), d.ExpiresAt.Local().Format(time.DateTime))
			}
			return tw.Flush()
		}},
		"revoke": {Summary: "sign a browser or device out", Run: func(args []string) error {
			fs := clibase.NewFlagSet("devices revoke", stderr)
			var g gatewaycli.Flags
			g.Register(fs)
			// The ID may come before the flags or after them.
			var id string
			if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
				id, args = args[0], args[1:]
			}
			if err := clibase.ParseFlags(fs, args); err != nil {
				return err
			}
			if id == "" && fs.NArg() == 1 {
				id = fs.Arg(0)
			} else if fs.NArg() > 0 || id == "" {
				return clibase.UsageErrorf("usage: toolgate devices revoke ID")
			}
			c, err := g.Client()
			if err != nil {
				return err
			}
			if err := c.RevokeDevice(ctx, id); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "signed out %s\n", id)
			return nil
		}},
	})
}
