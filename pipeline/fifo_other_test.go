//go:build !unix

package pipeline

import "errors"

// mkfifo fails where there are no FIFOs.
func mkfifo(string) error { return errors.New("no FIFOs on this system") }
