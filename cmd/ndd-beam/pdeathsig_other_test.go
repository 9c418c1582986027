//go:build !linux

package main

import "os/exec"

// setParentDeathSignal does nothing outside Linux; prism's
// --idle_shutdown_timeout still ends a prism left behind.
func setParentDeathSignal(*exec.Cmd) {}
