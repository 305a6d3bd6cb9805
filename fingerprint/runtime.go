package fingerprint

import (
	"runtime"
	"strings"
	_ "unsafe" // for go:linkname
)

// frameStartLine returns the line of a frame's func keyword. The runtime
// keeps this for outside users ("hall of shame", go.dev/issue/67401), and
// nothing else gives it: the entry PC's line is the first statement's for
// a frameless function, and matching on that picks the wrong literal.
//
//go:linkname frameStartLine runtime/pprof.runtime_FrameStartLine
func frameStartLine(f *runtime.Frame) int

// codeLocation is where the binary says a function's code comes from.
type codeLocation struct {
	symbol    string // the physical function's symbol
	file      string // as recorded at build time: absolute, or trimmed by -trimpath
	startLine int    // line of the func keyword
}

// locate finds the function whose code starts at pc. ok is false when pc
// is not the entry of a Go function.
func locate(pc uintptr) (codeLocation, bool) {
	fn := runtime.FuncForPC(pc)
	if fn == nil {
		return codeLocation{}, false
	}
	entry := fn.Entry()
	// The PC is given twice so that, were the entry instruction inlined code,
	// the runtime would also emit the enclosing physical frame (it adds
	// outer frames only when more PCs follow); the physical one is the frame
	// with a Func.
	frames := runtime.CallersFrames([]uintptr{entry + 1, entry + 1})
	for {
		fr, more := frames.Next()
		if fr.Func != nil && fr.Entry == entry {
			file := fr.File
			if strings.IndexByte(file, '\\') >= 0 {
				file = strings.ReplaceAll(file, `\`, "/")
			}
			return codeLocation{symbol: fr.Function, file: file, startLine: frameStartLine(&fr)}, true
		}
		if !more {
			return codeLocation{}, false
		}
	}
}
