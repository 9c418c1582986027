// Package warcfiltertest holds the end-to-end test of filtered WARC files
// (--write_warc, transforms.FilterWARC): the job on the shared WARC files
// and on a scheduled --against batch, every output record read back by an
// independent reader, warcio.js (scripts/warccheck). It has no code of its
// own; the test has a package to itself so that its jobs have their own
// test timeout.
package warcfiltertest
