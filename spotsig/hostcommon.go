package spotsig

// HostTemplate is a rule for a site's own template: a signature found in at
// least Fraction of the documents of one host, on a host with at least
// MinDocs documents, belongs to that host's template (navigation, teasers,
// footers the markup does not mark as boilerplate), not to any one page's
// content. It is the per-host counterpart of the corpus-wide IDF lower
// bound (§5.1), which cannot see a template shared by a few dozen pages of
// one site among millions. Not from the paper; measured in docs/quality.md
// ("Keep/drop decisions", host-template verification).
type HostTemplate struct {
	MinDocs  int
	Fraction float64
}

// DefaultHostTemplate: a signature in half or more of the documents of a
// host with at least 3 documents (with 2 documents a shared signature could
// as well be a shared article).
var DefaultHostTemplate = HostTemplate{MinDocs: 3, Fraction: 0.5}

// StripHostTemplate returns the vectors without their host's template
// signatures (see HostTemplate): hosts[i] is the host of vecs[i]. Vectors
// of hosts below MinDocs are returned as they are; the input is not
// modified. Time and memory O(Σ distinct signatures).
func StripHostTemplate(vecs []Vector, hosts []string, rule HostTemplate) []Vector {
	docs := map[string]int{}
	df := map[string]map[uint64]int{}
	for i, v := range vecs {
		h := hosts[i]
		docs[h]++
		if df[h] == nil {
			df[h] = map[uint64]int{}
		}
		for _, s := range v.Hashes {
			df[h][s]++
		}
	}
	out := make([]Vector, len(vecs))
	for i, v := range vecs {
		h := hosts[i]
		if docs[h] < rule.MinDocs {
			out[i] = v
			continue
		}
		limit := rule.Fraction * float64(docs[h])
		for k, s := range v.Hashes {
			if float64(df[h][s]) < limit {
				out[i].Hashes = append(out[i].Hashes, s)
				out[i].Freqs = append(out[i].Freqs, v.Freqs[k])
			}
		}
	}
	return out
}
