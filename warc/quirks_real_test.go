package warc

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

// TestRealQuirks checks one quirk per real file, with expected values read
// off the file's own text (zcat | less), not off the reader's output.
func TestRealQuirks(t *testing.T) {
	t.Run("ClueWeb09 WARC/0.18: one gzip member, bare LF, no record separators", func(t *testing.T) {
		recs := readAll(t, realFile(t, "copycat__clueweb-09-sample-en0000-00.warc.gz"), Options{})
		if len(recs) != 24 {
			t.Fatalf("records = %d, want 24", len(recs))
		}
		for i, r := range recs {
			if r.Offset != 0 {
				t.Errorf("record %d: Offset %d, want 0 (the file is one gzip member)", i, r.Offset)
			}
			if i > 0 && r.InnerOffset <= recs[i-1].InnerOffset {
				t.Errorf("record %d: InnerOffset %d not after %d", i, r.InnerOffset, recs[i-1].InnerOffset)
			}
		}
		r := recs[1]
		if r.RecordID != "urn:uuid:67f7cabd-146c-41cf-bd01-04f5fa7d5229" || r.TargetURI != "http://00000-nrt-realestate.homepagestartup.com/" ||
			r.InnerOffset != 409 || r.HTTPStatus != 200 || r.Skip != "" || r.Date != "2009-03-65T08:43:19-0800" {
			t.Errorf("second record = %+v", r)
		}
		// The HTTP header (bare LF) says Content-Length: 16254; ClueWeb09's
		// WARC Content-Length also counts the "\n\n" that ends the record,
		// so the block holds 302 header bytes, the body and those two.
		if len(r.Payload) != 16254+2 || !bytes.HasPrefix(r.Payload, []byte("<head> <meta http-equiv")) ||
			!bytes.HasSuffix(r.Payload, []byte("</html> \n\n")) {
			t.Errorf("payload: %d bytes, starts %q", len(r.Payload), r.Payload[:min(30, len(r.Payload))])
		}
	})
	t.Run("Wayback: WARC-Date null, HTTP header merged into the WARC header", func(t *testing.T) {
		recs := readAll(t, realFile(t, "copycat__snapshot-wayback-topic-02.warc.gz"), Options{})
		if recs[0].Type != "warcinfo" || recs[0].Date != "2020-10-10T07:57:31Z" {
			t.Errorf("warcinfo = %+v", recs[0])
		}
		r := recs[1]
		if r.Date != "" || r.Skip != "" || r.ContentType != "text/html" ||
			r.TargetURI != "http://web.archive.org/web/20110111145835/http://catalogue.horse21.nl:80/aruba+hotels/oranjestad+hotels" ||
			!bytes.HasPrefix(bytes.TrimLeft(r.Payload, "\n"), []byte(`<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1`)) {
			t.Errorf("first response = %+v", r)
		}
	})
	t.Run("dolma: <uri>-wrapped WARC-Target-URI", func(t *testing.T) {
		found := false
		for _, r := range readAll(t, realFile(t, "dolma__sample-0000.warc.gz"), Options{}) {
			found = found || r.TargetURI == "https://www.semanticscholar.org/research/research-team"
		}
		if !found {
			t.Error("no record with target URI https://www.semanticscholar.org/research/research-team")
		}
	})
	t.Run("aut: WARC/0.17, dns response is not HTML", func(t *testing.T) {
		recs := readAll(t, realFile(t, "aut__example.warc.gz"), Options{})
		if recs[0].RecordID != "urn:uuid:35f02b38-eb19-4f0d-86e4-bfe95815069c" {
			t.Errorf("first record ID %q", recs[0].RecordID)
		}
		if recs[1].TargetURI != "dns:www.archive.org" || recs[1].Skip != SkipNotHTML || recs[1].ContentType != "text/dns" {
			t.Errorf("dns record = %+v", recs[1])
		}
	})
	t.Run("ukwa: revisit records are skipped as revisit", func(t *testing.T) {
		n := 0
		for _, r := range readAll(t, realFile(t, "ukwa-discovery__BL-20140325122341434-00000-32090~opera~8443.warc.gz"), Options{}) {
			if r.Type == "revisit" {
				n++
				if r.Skip != SkipRevisit {
					t.Errorf("revisit %s: Skip %q", r.RecordID, r.Skip)
				}
			}
		}
		if n != 55 {
			t.Errorf("revisits = %d, the file has 55", n)
		}
	})
}

// TestRealTruncatedGzip cuts the real ukwa "truncated" file (which itself
// ends on a member boundary) inside later members and checks that reading
// finishes with every complete member's record plus one "truncated" record
// at the offset of the cut member. Complete members are counted with
// compress/gzip directly, independently of ReadFile.
func TestRealTruncatedGzip(t *testing.T) {
	data := realFile(t, "ukwa-discovery__IAH-20080430204825-00000-blackbook-truncated.warc.gz")
	for _, cut := range []int{len(data) - 1, 20000, 5000, 463 + 5} {
		in := data[:cut]
		whole := 0
		lastStart := int64(0)
		r := bytes.NewReader(in)
		for {
			start := int64(len(in) - r.Len())
			z, err := gzip.NewReader(r)
			if err != nil {
				lastStart = start
				break
			}
			z.Multistream(false)
			if _, err := io.Copy(io.Discard, z); err != nil {
				lastStart = start
				break
			}
			whole++
		}
		recs := readAll(t, in, Options{})
		if len(recs) != whole+1 {
			t.Fatalf("cut at %d: %d records, want %d whole members + 1", cut, len(recs), whole)
		}
		for _, r := range recs[:whole] {
			if r.Skip == SkipTruncated || r.Skip == SkipUnreadable {
				t.Errorf("cut at %d: record at %d: %s", cut, r.Offset, r.Skip)
			}
		}
		if last := recs[whole]; last.Skip != SkipTruncated || last.Offset != lastStart {
			t.Errorf("cut at %d: last record %+v, want truncated at %d", cut, brief(last), lastStart)
		}
	}
}
