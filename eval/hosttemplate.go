package eval

import (
	"context"
	"fmt"

	"github.com/ndd-beam/ndd-beam/config"
	"github.com/ndd-beam/ndd-beam/dedup"
	"github.com/ndd-beam/ndd-beam/match"
	"github.com/ndd-beam/ndd-beam/spotsig"
)

// HostTemplateRun is the job's result on a labelled set without and with
// a verification of each pair on the vectors stripped of their host's
// template signatures (spotsig.StripHostTemplate): a pair stays a
// near-duplicate only if the stripped vectors still have weighted Jaccard
// >= τ (pairs of two pages that are template only, with nothing left, keep
// their Jaccard).
type HostTemplateRun struct {
	Name                string
	Pairs               Result
	Drops               DropResult
	PairsKept, Verified int // pairs before and after the verification
}

// HostTemplateVerify measures the host-template verification (not in the
// job) on files with truth t at parameters p: the plain run and the run
// with each rule. Hosts are warc target URIs' host names (see host).
func HostTemplateVerify(p config.Params, files []string, t *Truth, rules []spotsig.HostTemplate) ([]HostTemplateRun, error) {
	res, err := dedup.Run(context.Background(), p, files)
	if err != nil {
		return nil, err
	}
	out := []HostTemplateRun{{Name: "plain", Pairs: Evaluate(t, res.PairRecords()), Drops: EvaluateDrops(t, res.Decisions), PairsKept: len(res.Pairs), Verified: len(res.Pairs)}}
	vecs := make([]spotsig.Vector, len(res.Docs))
	hosts := make([]string, len(res.Docs))
	for i, d := range res.Docs {
		vecs[i], hosts[i] = d.Vec, host(d.URI)
	}
	for _, rule := range rules {
		stripped := spotsig.StripHostTemplate(vecs, hosts, rule)
		var pairs []match.Pair
		for _, pr := range res.Pairs {
			a, b := stripped[pr.A], stripped[pr.B]
			if (a.Len() == 0 && b.Len() == 0) || match.WeightedJaccard(a, b) >= p.Tau {
				pairs = append(pairs, pr)
			}
		}
		ds, _, err := dedup.Decide(res.Pages, res.Docs, res.RepOf, pairs, p.Method)
		if err != nil {
			return nil, err
		}
		v := *res
		v.Pairs = pairs
		out = append(out, HostTemplateRun{
			Name:  fmt.Sprintf("host template: df ≥ %.2f of a host's pages, hosts of ≥ %d", rule.Fraction, rule.MinDocs),
			Pairs: Evaluate(t, v.PairRecords()), Drops: EvaluateDrops(t, ds), PairsKept: len(res.Pairs), Verified: len(pairs),
		})
	}
	return out, nil
}
