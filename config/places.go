package config

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// CheckPlaces checks where the run writes against where it reads: --output
// and --write_warc may be neither a folder given as input nor inside one,
// nor the folder of an input glob or file (crawl/ for crawl/*.warc.gz:
// the outputs would lie among the WARC files); --write_warc needs a
// directory of its own, apart from --output and the index. Input lists
// (@LIST) are not looked into. Errors are *ParamError naming the flag.
// pipeline.Validate calls it once the inputs are known to exist.
func (c *Config) CheckPlaces() error {
	if strings.HasPrefix(c.WriteWARC, "http://") || strings.HasPrefix(c.WriteWARC, "https://") {
		return ParamErrorf(LayoutQuoted, "--write_warc", c.WriteWARC, "http(s) is read-only; write to a local directory, gs:// or s3://")
	}
	if c.WriteWARC != "" {
		if inside(c.WriteWARC, c.Output) || inside(c.Output, c.WriteWARC) {
			return ParamErrorf(LayoutQuoted, "--write_warc", c.WriteWARC, "is --output %q or inside it, or holds it: the filtered WARC files need a directory of their own", c.Output)
		}
		if inside(c.WriteWARC, c.WriteIndex) || inside(c.WriteIndex, c.WriteWARC) {
			return ParamErrorf(LayoutQuoted, "--write_warc", c.WriteWARC, "is --write_index %q or inside it, or holds it: the filtered WARC files need a directory of their own", c.WriteIndex)
		}
	}
	for _, in := range c.Input {
		dir, folder := inputFolder(in)
		if dir == "" {
			continue
		}
		for _, f := range []struct{ flag, v string }{{"--output", c.Output}, {"--write_warc", c.WriteWARC}} {
			switch {
			case f.v == "":
			case inside(f.v, dir) && inside(dir, f.v):
				return ParamErrorf(LayoutQuotedIs, f.flag, f.v, "is the folder of --input %q: the run would write among the WARC files it reads; choose another directory", in)
			case folder && inside(f.v, dir):
				return ParamErrorf(LayoutQuotedIs, f.flag, f.v, "lies inside the input folder of --input %q; choose a directory outside it", in)
			}
		}
	}
	return nil
}

// inputFolder returns the folder input in reads from: in itself when it is
// a local directory or ends in "/" (folder true), else the directory part
// of a glob or file path (folder false: other things may lie inside it).
// "" for input lists and http(s) URLs.
func inputFolder(in string) (dir string, folder bool) {
	if in == "" || strings.HasPrefix(in, "@") {
		return "", false
	}
	if strings.HasSuffix(in, "/") {
		return in, true
	}
	if !strings.Contains(in, "://") {
		if st, err := os.Stat(in); err == nil && st.IsDir() {
			return in, true
		}
		d := filepath.Dir(in)
		if strings.ContainsAny(d, "*?[") {
			return "", false
		}
		return d, false
	}
	if strings.HasPrefix(in, "http://") || strings.HasPrefix(in, "https://") {
		return "", false
	}
	i := strings.Index(in, "://") + 3
	rest := path.Dir(in[i:])
	if strings.ContainsAny(rest, "*?[") || !strings.Contains(rest, "/") {
		return "", false // a bucket's root, or a glob in a folder name
	}
	return in[:i] + rest, false
}
