module github.com/ndd-beam/ndd-beam

go 1.26.8

require (
	github.com/apache/beam/sdks/v2 v2.77.0 // indirect
	github.com/bits-and-blooms/bitset v1.5.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/compress v1.19.2 // indirect
	github.com/nlnwa/gowarc v1.6.0 // indirect
	github.com/nlnwa/whatwg-url v0.4.0 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/prometheus/prometheus v0.40.3 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
