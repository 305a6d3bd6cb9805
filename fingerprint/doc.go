// Package fingerprint hashes Go code by its source, so that a definition
// can record the code that changes what a tool call does: interceptors,
// an HTTP client factory, auth, sampling and elicitation handlers, a native
// tool's function.
//
// A func value is traced to its source through the runtime (its symbol,
// the file the binary recorded, the line of its func keyword), and the
// declaration or literal there is hashed with BLAKE3 as a normalised token
// stream: comments, layout, semicolons, trailing commas, string quoting and
// import aliases do not count, and every other token does. No path, line
// number or machine detail enters a digest, so the same program gives the
// same digest on every machine and in every build mode (-trimpath, -race,
// -cover, with or without inlining). docs/fingerprint.md specifies the
// algorithm exactly.
//
// Code from the standard library and from mcp-go is skipped: the zero
// Digest. Third-party module code is identified by its module path,
// version and location, and needs no source. Code that cannot be
// fingerprinted honestly (source missing or changed since the build,
// reflect.MakeFunc, a method value through an interface) is refused with a
// *refusals.Error naming the symbol and saying how to fix it.
//
// A binary deployed without its source tree supplies the source itself:
// //go:embed it, and pass EmbeddedSource of it in Options.Sources.
//
// Fingerprinting reads local source files, the way os.ReadFile does, and
// takes no context.Context: there is no network, no process and no wait,
// and a definition's Build, which calls it, has no context either.
package fingerprint
