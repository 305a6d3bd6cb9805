module github.com/guardian-agent/guardian-go

go 1.26

require github.com/zeebo/blake3 v0.2.4

require (
	github.com/klauspost/cpuid/v2 v2.0.12 // indirect
	github.com/mark3labs/mcp-go v1.2.1 // indirect
)
