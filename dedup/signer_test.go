package dedup

import (
	"errors"
	"testing"

	"github.com/ndd-beam/ndd-beam/config"
)

// TestMethodsTable builds every scheme of the table from the defaults and
// checks that an unknown name, or options its scheme refuses, fail both
// NewSigner and CheckMethod, the latter as a --method ParamError.
func TestMethodsTable(t *testing.T) {
	for _, m := range methods {
		p := config.DefaultParams()
		p.Method = m.name
		if s, err := NewSigner(p); err != nil || s == nil {
			t.Errorf("NewSigner(%q) = %v, %v", m.name, s, err)
		}
		if err := CheckMethod(p); err != nil {
			t.Errorf("CheckMethod(%q) = %v", m.name, err)
		}
	}
	p := config.DefaultParams()
	p.Method = "shingles-typo"
	_, err := NewSigner(p)
	if err == nil || err.Error() != `unknown method "shingles-typo" (want "spotsigs" or "shingles")` {
		t.Errorf("NewSigner of an unknown method: %v", err)
	}
	p.Method, p.ShingleK = config.MethodShingles, 0
	var pe *config.ParamError
	if err := CheckMethod(p); !errors.As(err, &pe) || pe.Flag != "--method" || !errors.Is(err, config.ErrConfig) {
		t.Errorf("CheckMethod with --shingle_k=0: %v, want a --method ParamError", err)
	}
}
