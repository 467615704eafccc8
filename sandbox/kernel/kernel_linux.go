package kernel

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// MinLandlockABI is the oldest Landlock ABI the sandbox runs on: 6
// restricts TCP (4), device ioctls (5) and scopes signals and abstract
// unix sockets (6).
const MinLandlockABI = 6

// Check reports why this machine cannot confine a command, or nil when it
// can.
func Check() error {
	r, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		return fmt.Errorf("landlock is not available in this kernel (%w)", e)
	}
	if v := int(r); v < MinLandlockABI {
		return fmt.Errorf("landlock ABI %d is older than %d (TCP, device and IPC restrictions)", v, MinLandlockABI)
	}
	if b, err := os.ReadFile("/proc/sys/user/max_user_namespaces"); err == nil && strings.TrimSpace(string(b)) == "0" {
		return errors.New("user namespaces are disabled (/proc/sys/user/max_user_namespaces is 0)")
	}
	return nil
}
