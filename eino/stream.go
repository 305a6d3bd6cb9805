package eino

import "github.com/cloudwego/eino/schema"

func singleString(s string) *schema.StreamReader[string] {
	return schema.StreamReaderFromArray([]string{s})
}

func textResult(s string) *schema.ToolResult {
	return &schema.ToolResult{Parts: []schema.ToolOutputPart{{Type: schema.ToolPartTypeText, Text: s}}}
}

func singleResult(s string) *schema.StreamReader[*schema.ToolResult] {
	return schema.StreamReaderFromArray([]*schema.ToolResult{textResult(s)})
}
