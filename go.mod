module github.com/guardian-agent/guardian-go

go 1.26

require (
	github.com/klauspost/cpuid/v2 v2.0.12 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	github.com/zeebo/blake3 v0.2.4 // indirect
	golang.org/x/text v0.14.0 // indirect
)
