package definition

import (
	"cmp"
	"maps"
	"slices"
	"strconv"

	"github.com/guardian-agent/guardian-go/internal/execargs"
	"github.com/guardian-agent/guardian-go/refusals"
	"github.com/guardian-agent/guardian-go/secrets"
)

// serverUse is a server the agent's tools come from.
type serverUse struct {
	server  Server
	differs bool // another tool named a different server of the same name
}

func sameServer(a, b Server) bool {
	return a.Name == b.Name && a.Transport == b.Transport && a.URL == b.URL &&
		a.Command == b.Command && slices.Equal(a.Args, b.Args)
}

// servers records the servers in use, sorted by name, and refuses what
// cannot be recorded: a credential where it would be written down, a
// websocket server, two different servers of one name, a server record
// that contradicts its transport.
func (b *builder) servers(used map[string]*serverUse, base string) []Server {
	names := slices.SortedFunc(maps.Keys(used), cmp.Compare[string])
	out := make([]Server, 0, len(names))
	for n, name := range names {
		u := used[name]
		s := u.server
		s.Args = slices.Clone(s.Args)
		sp := refusals.Append(base, keyMCPServers, strconv.Itoa(n))
		if u.differs {
			b.refuse(refusals.ErrInvalid, sp, "server-name-conflict", name,
				"the agent's tools name two different servers of this name",
				"give each server its own name")
		}
		if name == "" {
			b.refuse(refusals.ErrInvalid, refusals.Append(sp, keyName), "server-name-required", "", "", "give the server a name")
		}
		b.name(sp, keyName, s.Name)
		switch s.Transport {
		case TransportStdio:
			if s.Command == "" {
				b.refuse(refusals.ErrInvalid, refusals.Append(sp, keyCommand), "stdio-command-required", name, "", "give the stdio server a command")
			}
			if s.URL != "" {
				b.refuse(refusals.ErrInvalid, refusals.Append(sp, keyURL), "stdio-url", name, "a stdio server has a URL", "")
			}
			b.checkText(sp, keyCommand, s.Command)
			ap := refusals.Append(sp, keyArgs)
			for i, a := range s.Args {
				b.checkText(ap, strconv.Itoa(i), a)
			}
			// What mcpservers.NewClient would not start.
			b.errs = append(b.errs, execargs.Refusals(sp, subject(name), s.Command, s.Args)...)
			// Command and args together: the command says what a flag
			// means (mysql -pSECRET, sshpass -p SECRET).
			if err := secrets.CheckStdio(sp, s.Command, s.Args); err != nil {
				b.errs = append(b.errs, withSubject(err, name))
			}
		case TransportSSE, TransportStreamableHTTP, TransportWebSocket:
			if err := CheckTransport(refusals.Append(sp, keyTransport), name, s.Transport); err != nil {
				b.errs = append(b.errs, err)
			}
			if s.URL == "" {
				b.refuse(refusals.ErrInvalid, refusals.Append(sp, keyURL), "url-required", name, "", "give the server's URL")
			}
			if s.Command != "" || len(s.Args) > 0 {
				b.refuse(refusals.ErrInvalid, refusals.Append(sp, keyCommand), "http-command", name, "an HTTP server has a command", "")
			}
			b.checkText(sp, keyURL, s.URL)
			if err := secrets.CheckURL(refusals.Append(sp, keyURL), s.URL); err != nil {
				b.errs = append(b.errs, withSubject(err, name))
			}
		default:
			b.errs = append(b.errs, CheckTransport(refusals.Append(sp, keyTransport), name, s.Transport))
		}
		out = append(out, s)
	}
	return out
}

// CheckTransport refuses, at pointer, a transport a definition does not
// record for the server named server: websocket (refusals.ErrWebSocket,
// rule "websocket") and any transport it does not know (rule
// "transport-unknown"). It returns nil for stdio, sse and
// streamable_http. Build applies it to every server; a program that checks
// a server's configuration before starting it calls it with a pointer into
// that configuration, and gets the refusal Build would give.
func CheckTransport(pointer, server string, t Transport) error {
	switch t {
	case TransportStdio, TransportSSE, TransportStreamableHTTP:
		return nil
	case TransportWebSocket:
		return &refusals.Error{Kind: refusals.ErrWebSocket, Pointer: pointer, Rule: "websocket", Subject: subject(server),
			Fix: "reach the server over streamable HTTP, SSE or stdio"}
	}
	return &refusals.Error{Kind: refusals.ErrInvalid, Pointer: pointer, Rule: "transport-unknown", Subject: subject(server),
		Fix: "use stdio, sse or streamable_http"}
}

// withSubject names the server in refusals that do not name one yet.
func withSubject(err error, server string) error {
	rs := refusals.All(err)
	if len(rs) == 0 {
		return err
	}
	out := make([]error, len(rs))
	for i, r := range rs {
		c := *r
		if c.Subject == "" {
			c.Subject = subject(server)
		}
		out[i] = &c
	}
	return refusals.Join(out...)
}
