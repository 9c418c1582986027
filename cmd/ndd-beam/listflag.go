package main

import "strings"

// listFlag is a comma-separated list flag (--against) that appends to a
// slice; Get makes it a flag.Getter for the template metadata.
type listFlag struct{ v *[]string }

func (f listFlag) String() string {
	if f.v == nil {
		return ""
	}
	return strings.Join(*f.v, ",")
}

func (f listFlag) Set(s string) error {
	*f.v = append(*f.v, splitGlobs(s)...)
	return nil
}

func (f listFlag) Get() any { return f.String() }
