// Package fakemodel is a chat-model client of a package Build does not
// know, for Options.ChatModelPackages.
package fakemodel

import "context"

// Client is a chat-model client: it has a method that takes a context.
type Client struct{ Endpoint string }

// Generate would call the model; it sends nothing.
func (c *Client) Generate(ctx context.Context, prompt string) (string, error) { return "", nil }
