//go:build linux && amd64

package sandbox

// seccompProgram is the profile's filter: package seccomppolicy's, as
// data (seccomp_data_amd64.go, checked by TestSeccompData).
func seccompProgram(p *Profile) ([][4]uint32, error) {
	if len(p.Net) > 0 {
		return seccompNetwork, nil
	}
	return seccompNoNetwork, nil
}
