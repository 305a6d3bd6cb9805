package refusals

// A kind is a sentinel error that may belong to a family: errors.Is matches
// both the kind itself and its family, so callers can test as coarsely or as
// finely as they need.
type kind struct {
	msg    string
	family error
}

func (k *kind) Error() string { return k.msg }

// Is reports whether target is the family k belongs to. errors.Is has already
// compared k itself with target before it asks.
func (k *kind) Is(target error) bool { return k.family != nil && target == k.family }

func family(msg string) error            { return &kind{msg: msg} }
func member(msg string, fam error) error { return &kind{msg: msg, family: fam} }

// The families of refusal. Every *Error's Kind is one of them or a
// member of one; errors.Is(err, family) holds for every member.
var (
	// ErrContainsSecret: a credential stands in a value the definition would
	// record (a command, a URL, an argument). The Python SDK's
	// DefinitionContainsSecret. The refusal never carries the value.
	ErrContainsSecret = family("contains a secret")

	// ErrInvalid: the input contradicts itself or the document format (two
	// servers of one name that differ, a malformed document, a bad option).
	// The Python SDK's DefinitionInvalid.
	ErrInvalid = family("invalid")

	// ErrCannotRecord: the input is well formed, but a definition could not
	// record it honestly, so it is refused rather than recorded wrongly. The
	// Python SDK's TypeError list; each kind below is a member.
	ErrCannotRecord = family("cannot be recorded")
)

// Members of ErrCannotRecord.
var (
	// ErrSessionTool: a tool loaded from a caller-owned session calls whatever
	// that session is connected to, which the definition cannot see.
	ErrSessionTool = member("tool is bound to a caller-owned session", ErrCannotRecord)

	// ErrArgsNotStrings: stdio arguments in a config file that are not all
	// strings.
	ErrArgsNotStrings = member("stdio args are not a list of strings", ErrCannotRecord)

	// ErrWebSocket: a websocket server, which a definition cannot record yet.
	ErrWebSocket = member("websocket servers cannot be recorded", ErrCannotRecord)

	// ErrUnreadableSource: code whose source cannot be read (a binary moved
	// away from its source, a deleted file, code built without source).
	ErrUnreadableSource = member("source cannot be read", ErrCannotRecord)

	// ErrStaleSource: the source on disk no longer matches the code that was
	// built (the file changed after the build).
	ErrStaleSource = member("source changed after the build", ErrCannotRecord)

	// ErrOpaqueCode: code whose source cannot be identified at all
	// (reflect.MakeFunc, a method value through an interface).
	ErrOpaqueCode = member("code cannot be identified", ErrCannotRecord)

	// ErrHiddenTool: middleware holds an MCP tool it does not offer the
	// model, and could run it out of the definition's sight.
	ErrHiddenTool = member("middleware holds an MCP tool it does not offer", ErrCannotRecord)

	// ErrForeignTool: a tool, or code shaping a tool's calls, holds an MCP
	// tool the agent is not given, whose server the definition would not
	// record.
	ErrForeignTool = member("holds an MCP tool the agent is not given", ErrCannotRecord)

	// ErrUnroutedModel: a tool, or code shaping a tool's calls, can reach a
	// chat-model client that is not the agent's routed model, whose calls
	// would not go through it.
	ErrUnroutedModel = member("can reach a chat model that is not routed", ErrCannotRecord)
)

// ErrUndescribed: a tool about to be called is not one the definition
// describes (an unknown name, another server, changed code), so the call is
// refused before anything is sent. The Python SDK raises ValueError here.
var ErrUndescribed = family("tool is not described by the definition")
