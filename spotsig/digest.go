package spotsig

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
)

// TextDigest identifies a page's extracted text for exact-copy detection:
// the first 16 bytes of its SHA-256 in lower-case hex, or "" when
// the text has nothing but white space. 128 bits keep the chance of any
// collision among 10^12 texts below 10^-14.
func TextDigest(text []byte) string {
	if len(bytes.TrimSpace(text)) == 0 {
		return ""
	}
	sum := sha256.Sum256(text)
	return hex.EncodeToString(sum[:16])
}
