// Package modeltest is a test-only module: it builds real chat-model client
// values (openai-go, anthropic-sdk-go) for definition's unrouted-model
// tests, so that guardian-go's own module does not depend on them. CI runs
// its tests (.ci/run).
package modeltest
