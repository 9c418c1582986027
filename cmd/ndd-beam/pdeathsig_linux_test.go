package main

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal makes the kernel kill cmd when this process dies.
func setParentDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
