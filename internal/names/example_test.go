package names_test

import (
	"fmt"
	"strings"

	"github.com/guardian-agent/guardian-go/internal/names"
)

func ExampleAppend() {
	token := "ghp_" + strings.Repeat("Zq8Lm3Vx4Rb7", 3) // built, not a literal
	fmt.Println(names.Append("/mcpServers", "github", 0))
	fmt.Println(names.Append("/mcpServers", token, 1))
	fmt.Println(names.Subject(token))
	// Output:
	// /mcpServers/github
	// /mcpServers/<member 1>
	// <withheld>
}

func ExampleCheck() {
	for _, err := range names.Check("/tools/0/name", "read\u202efdp.exe") {
		fmt.Println(err)
	}
	fmt.Println(names.Check("/tools/0/name", "user-profile/update") == nil)
	// Output:
	// /tools/0/name: invalid: name-character: the name holds U+202E, a bidi control character, which reorders the text shown; rename it: a name holds no control, bidi or invisible character
	// true
}
