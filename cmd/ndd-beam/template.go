package main

import (
	"encoding/json"
	"flag"
	"io"
)

// printTemplateMetadataFlag names the flag that prints the Dataflow flex
// template metadata (deploy/dataflow/metadata.json) and exits.
const printTemplateMetadataFlag = "print_template_metadata"

// templateParameter is one entry of a flex template's metadata.json, the
// fields of Dataflow's ParameterMetadata (google.dataflow.v1beta3).
type templateParameter struct {
	Name         string   `json:"name"`
	Label        string   `json:"label"`
	HelpText     string   `json:"helpText"`
	IsOptional   bool     `json:"isOptional"`
	ParamType    string   `json:"paramType,omitempty"`
	Regexes      []string `json:"regexes,omitempty"`
	DefaultValue string   `json:"defaultValue,omitempty"`
}

// gcsOnly are the parameters that must be gs:// paths on Dataflow, with
// the regex Dataflow checks at launch.
var gcsOnly = map[string]string{
	"input":  `^gs://[^,]+(,gs://[^,]+)*$`,
	"output": `^gs://.+$`,
}

// writeTemplateMetadata writes metadata.json for the Dataflow flex template:
// one parameter per job flag of j (in --help order) but its launcher flags, with the flag's
// usage as help text and its default, so the template cannot drift from the
// command. Runner flags (project, region, staging and temp locations,
// machine type, …) are launch options of the template, not parameters.
func writeTemplateMetadata(w io.Writer, j *jobFlagSet) error {
	meta := struct {
		Name        string              `json:"name"`
		Description string              `json:"description"`
		Parameters  []templateParameter `json:"parameters"`
	}{
		Name:        "ndd-beam",
		Description: "Near-duplicate web pages in WARC files with SpotSigs (Theobald, Siddharth, Paepcke, SIGIR 2008): writes pairs-*.jsonl, rejects-*.jsonl and summary.json under --output.",
	}
	for _, name := range j.names {
		if j.launcher[name] {
			// The launcher's own, not the job's: nothing to set on Dataflow.
			continue
		}
		f := j.Lookup(name)
		p := templateParameter{Name: name, Label: name, HelpText: f.Usage, IsOptional: true, DefaultValue: f.DefValue}
		if re, ok := gcsOnly[name]; ok {
			p.IsOptional = false
			p.Regexes = []string{re}
		}
		switch f.Value.(flag.Getter).Get().(type) {
		case bool:
			p.ParamType = "BOOLEAN"
		case int, int64, float64:
			p.ParamType = "NUMBER"
		default:
			p.ParamType = "TEXT"
		}
		if name == "output" {
			p.ParamType = "GCS_WRITE_FOLDER"
		}
		meta.Parameters = append(meta.Parameters, p)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(meta)
}
