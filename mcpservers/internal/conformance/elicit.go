package main

import (
	"context"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// acceptingElicitor answers a form elicitation as a user who submits the
// form as shown, changing nothing: mcpservers fills in each field the
// schema gives a default (SEP-1034), which is what the suite checks. It
// declines URL elicitations: there is no user here to open the link.
type acceptingElicitor struct{}

func (acceptingElicitor) Elicit(_ context.Context, req *mcpservers.ElicitationRequest) (*mcpservers.ElicitationResponse, error) {
	if req.Mode == "url" {
		return &mcpservers.ElicitationResponse{Action: mcpservers.ElicitationDecline}, nil
	}
	return &mcpservers.ElicitationResponse{Action: mcpservers.ElicitationAccept}, nil
}
