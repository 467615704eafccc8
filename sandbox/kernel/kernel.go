// Package kernel says whether this machine's kernel can confine a command
// as package sandbox does (Landlock ABI 6 or later and user namespaces),
// without linking the sandbox itself: the agent hooks ask it before they
// offer to run a call confined.
package kernel
