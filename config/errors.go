package config

import (
	"errors"
	"fmt"
)

// Errors of a bad value: ErrConfig, wrapped by every one, and ParamError,
// which names the flag and its value in one of a few message layouts.

// ErrConfig is wrapped by every configuration error: a bad flag value, an
// input glob that matches nothing, an unwritable output. The CLI prints it
// on one line and exits with status 2.
var ErrConfig = errors.New("config")

// ParamError is a configuration error: the flag Flag (e.g. "--tau") was
// given Value (nil when it was missing or is not the point) and Err says
// why. It unwraps to ErrConfig and to Err, so a caller tests
// errors.Is(err, ErrConfig), finds the flag with errors.As, or tests the
// cause (e.g. errors.Is(err, fs.ErrNotExist) for an --antecedents file).
type ParamError struct {
	Flag  string
	Value any
	Err   error
	// layout places Flag, Value and Err in the message, in that order
	// (fmt verbs; an explicit index skips the value: "%s %[3]v").
	layout string
}

// Error is the one-line message the CLI prints (after "config: ").
func (e *ParamError) Error() string {
	return ErrConfig.Error() + ": " + fmt.Sprintf(e.layout, e.Flag, e.Value, e.Err)
}

// Unwrap returns ErrConfig and the cause.
func (e *ParamError) Unwrap() []error { return []error{ErrConfig, e.Err} }

// Layouts of a ParamError's message (Flag, Value, Err).
const (
	LayoutIs       = "%s=%v: %v" // --tau=0: must be in (0, 1]
	LayoutIsQuoted = "%s=%q: %v" // --lang="xx": want …
	LayoutQuoted   = "%s %q: %v" // --output "dir": permission denied
	LayoutQuotedIs = "%s %q %v"  // --input "x" matches no file
	LayoutFlag     = "%s %[3]v"  // --input is required …
	LayoutFlagOf   = "%s: %[3]v" // --against: …
	LayoutCause    = "%[3]v"     // the cause names its flags itself
)

// ParamErrorf returns the ParamError of flag and value with the cause
// fmt.Errorf(format, args...) (%w wraps), worded by layout (Layout*).
func ParamErrorf(layout, flag string, value any, format string, args ...any) *ParamError {
	return &ParamError{Flag: flag, Value: value, Err: fmt.Errorf(format, args...), layout: layout}
}
