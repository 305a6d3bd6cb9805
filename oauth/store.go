package oauth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// Credentials is what signing in to one MCP server leaves: its
// tokens, and the client and token endpoint they were issued through, so
// that a later run can refresh them without discovering again. It holds
// secrets: it prints as a placeholder under every fmt verb, and a
// [TokenStore] must keep it where only its user can read it.
type Credentials struct {
	// Server is the MCP server's URL, the store's key.
	Server string
	// AccessToken is sent as a Bearer token; Expiry is when it stops
	// working (zero: not said).
	AccessToken string
	Expiry      time.Time
	// RefreshToken, if any, gets a new access token without the user.
	RefreshToken string
	// Scopes are the scopes granted (or, when the server did not say,
	// requested).
	Scopes []string
	// Resource is the RFC 8707 resource the tokens are for.
	Resource string
	// Issuer and TokenURL are the authorization server's.
	Issuer   string
	TokenURL string
	// ClientID and ClientSecret are the client's; AuthMethod is how it
	// authenticates at the token endpoint: "client_secret_basic",
	// "client_secret_post" or "none".
	ClientID     string
	ClientSecret string
	AuthMethod   string
	// RedirectURL is the redirect URL the client was registered with, and
	// ClientMetadataURL the client ID metadata document's URL when the
	// client ID is one.
	RedirectURL       string
	ClientMetadataURL string
}

// Format prints a placeholder, whatever the verb: the value holds tokens.
func (c Credentials) Format(f fmt.State, verb rune) {
	_, _ = io.WriteString(f, "mcpservers.Credentials{<withheld>}")
}

// secrets returns the credential values, for the redactor.
func (c *Credentials) secrets() []string {
	return []string{c.AccessToken, c.RefreshToken, c.ClientSecret}
}

func (c *Credentials) clone() *Credentials {
	if c == nil {
		return nil
	}
	d := *c
	d.Scopes = slices.Clone(c.Scopes)
	return &d
}

// TokenStore keeps OAuth credentials between connections and runs, keyed
// by the MCP server's URL. Implementations must be safe for concurrent
// use, and must not print or log what they hold. A TokenStore is code
// that shapes calls: a definition fingerprints it, by its code.
type TokenStore interface {
	// Load returns the credentials stored for the server, or nil and no
	// error when there are none.
	Load(ctx context.Context, server string) (*Credentials, error)
	// Save stores the credentials for the server, replacing any.
	Save(ctx context.Context, server string, c *Credentials) error
	// Delete removes the server's credentials; none stored is no error.
	Delete(ctx context.Context, server string) error
}

// MemoryTokenStore keeps credentials in memory, for one process. The zero
// value is ready to use.
type MemoryTokenStore struct {
	mu sync.Mutex
	m  map[string]*Credentials
}

// Load returns a copy of the server's credentials, or nil.
func (s *MemoryTokenStore) Load(_ context.Context, server string) (*Credentials, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[server].clone(), nil
}

// Save stores a copy of c.
func (s *MemoryTokenStore) Save(_ context.Context, server string, c *Credentials) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]*Credentials{}
	}
	s.m[server] = c.clone()
	return nil
}

// Delete forgets the server's credentials.
func (s *MemoryTokenStore) Delete(_ context.Context, server string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, server)
	return nil
}

// FileTokenStore keeps each server's credentials in a JSON file of its
// own in Dir, readable and writable by its owner only (0600, in a 0700
// directory it creates), written whole to a temporary file and renamed,
// so that a reader never sees half a file. Load refuses, on Unix, a file
// that others may read.
type FileTokenStore struct {
	// Dir is the directory; required.
	Dir string
}

// fileCredentials is the file's format.
type fileCredentials struct {
	Version           int       `json:"version"`
	Server            string    `json:"server"`
	AccessToken       string    `json:"access_token,omitempty"`
	Expiry            time.Time `json:"expiry,omitzero"`
	RefreshToken      string    `json:"refresh_token,omitempty"`
	Scopes            []string  `json:"scopes,omitempty"`
	Resource          string    `json:"resource,omitempty"`
	Issuer            string    `json:"issuer,omitempty"`
	TokenURL          string    `json:"token_url,omitempty"`
	ClientID          string    `json:"client_id,omitempty"`
	ClientSecret      string    `json:"client_secret,omitempty"`
	AuthMethod        string    `json:"auth_method,omitempty"`
	RedirectURL       string    `json:"redirect_url,omitempty"`
	ClientMetadataURL string    `json:"client_metadata_url,omitempty"`
}

var errStoreDir = &storeError{"the FileTokenStore has no Dir"}

// File returns the path of the file that holds the server's credentials.
func (s FileTokenStore) File(server string) string {
	sum := sha256.Sum256([]byte(server))
	return filepath.Join(s.Dir, hex.EncodeToString(sum[:16])+".json")
}

// Load reads the server's credentials, or returns nil when there is no
// file for it.
func (s FileTokenStore) Load(_ context.Context, server string) (*Credentials, error) {
	if s.Dir == "" {
		return nil, errStoreDir
	}
	name := s.File(server)
	fi, err := os.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &storeError{"cannot read the token file " + name}
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return nil, &storeError{fmt.Sprintf("the token file %s may be read by others (mode %v): remove it and sign in again", name, fi.Mode().Perm())}
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, &storeError{"cannot read the token file " + name}
	}
	var f fileCredentials
	// The error would quote the file's bytes: never pass it on.
	if json.Unmarshal(b, &f) != nil || f.Version != 1 || f.Server != server {
		return nil, &storeError{fmt.Sprintf("the token file %s is not one this version wrote: remove it and sign in again", name)}
	}
	return &Credentials{
		Server: f.Server, AccessToken: f.AccessToken, Expiry: f.Expiry, RefreshToken: f.RefreshToken,
		Scopes: f.Scopes, Resource: f.Resource, Issuer: f.Issuer, TokenURL: f.TokenURL,
		ClientID: f.ClientID, ClientSecret: f.ClientSecret, AuthMethod: f.AuthMethod,
		RedirectURL: f.RedirectURL, ClientMetadataURL: f.ClientMetadataURL,
	}, nil
}

// Save writes the server's credentials, 0600.
func (s FileTokenStore) Save(_ context.Context, server string, c *Credentials) error {
	if s.Dir == "" {
		return errStoreDir
	}
	if c == nil {
		return &storeError{"no credentials to save"}
	}
	b, err := json.MarshalIndent(fileCredentials{
		Version: 1, Server: server, AccessToken: c.AccessToken, Expiry: c.Expiry, RefreshToken: c.RefreshToken,
		Scopes: c.Scopes, Resource: c.Resource, Issuer: c.Issuer, TokenURL: c.TokenURL,
		ClientID: c.ClientID, ClientSecret: c.ClientSecret, AuthMethod: c.AuthMethod,
		RedirectURL: c.RedirectURL, ClientMetadataURL: c.ClientMetadataURL,
	}, "", "  ")
	if err != nil {
		return &storeError{"cannot encode the credentials"}
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return &storeError{fmt.Sprintf("cannot make the token directory %s", s.Dir)}
	}
	f, err := os.CreateTemp(s.Dir, ".tokens-*.tmp") // 0600
	if err != nil {
		return &storeError{fmt.Sprintf("cannot write in the token directory %s", s.Dir)}
	}
	tmp := f.Name()
	_, werr := f.Write(append(b, '\n'))
	serr := f.Sync()
	cerr := f.Close()
	if werr != nil || serr != nil || cerr != nil {
		_ = os.Remove(tmp)
		return &storeError{fmt.Sprintf("cannot write in the token directory %s", s.Dir)}
	}
	if err := os.Rename(tmp, s.File(server)); err != nil {
		_ = os.Remove(tmp)
		return &storeError{fmt.Sprintf("cannot write in the token directory %s", s.Dir)}
	}
	return nil
}

// Delete removes the server's file.
func (s FileTokenStore) Delete(_ context.Context, server string) error {
	if s.Dir == "" {
		return errStoreDir
	}
	err := os.Remove(s.File(server))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return &storeError{fmt.Sprintf("cannot remove the token file %s", s.File(server))}
	}
	return nil
}

// Servers lists the servers that have credentials in Dir, sorted.
func (s FileTokenStore) Servers() ([]string, error) {
	if s.Dir == "" {
		return nil, errStoreDir
	}
	ents, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &storeError{fmt.Sprintf("cannot read the token directory %s", s.Dir)}
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(s.Dir, e.Name()))
		if err != nil {
			continue
		}
		var f fileCredentials
		if json.Unmarshal(b, &f) == nil && f.Version == 1 && f.Server != "" && s.File(f.Server) == filepath.Join(s.Dir, e.Name()) {
			out = append(out, f.Server)
		}
	}
	slices.Sort(out)
	return out, nil
}
