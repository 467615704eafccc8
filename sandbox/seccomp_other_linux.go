//go:build linux && !amd64

package sandbox

import "github.com/toolgate/toolgate/sandbox/internal/seccomppolicy"

// seccompProgram assembles the profile's filter (on amd64 it is data).
func seccompProgram(p *Profile) ([][4]uint32, error) {
	return seccomppolicy.Program(len(p.Net) > 0)
}
