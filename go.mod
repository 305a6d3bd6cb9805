module github.com/guardian-agent/guardian-go

go 1.26
