//go:build !linux

package shell

// threadCPU is only measured on Linux; elsewhere the CPU bound is not
// checked.
func threadCPU() (int64, bool) { return 0, false }
