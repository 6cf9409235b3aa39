// Package metadata stores the off-chain metadata of launched tokens: the
// JSON document a token's on-chain uri points to, in the shape wallets and
// explorers read (name, symbol, description, image, links).
//
// A Store takes a document and answers its uri. In production it is an
// upload endpoint (HTTPStore); for development, Local keeps documents on
// disk and serves them over HTTP beside the local chains. Documents are
// addressed by their content, so storing the same document twice (a
// redelivered deploy) answers the same uri.
package metadata

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// MaxURILen is the longest uri the launch programs accept (pump.fun,
// LaunchLab and DBC through Metaplex all cap it at 200 bytes).
const MaxURILen = 200

// maxDocument bounds a stored document; a deploy's metadata fields are
// bounded well below it by ingress.
const maxDocument = 16 << 10

// Document is the metadata JSON. It follows the Metaplex fungible token
// standard (name, symbol, description, image, external_url) and also carries
// the links at the top level, where pump.fun-style readers look for them.
type Document struct {
	Name        string      `json:"name"`
	Symbol      string      `json:"symbol"`
	Description string      `json:"description"`
	Image       string      `json:"image,omitempty"`
	ExternalURL string      `json:"external_url,omitempty"`
	Twitter     string      `json:"twitter,omitempty"`
	Website     string      `json:"website,omitempty"`
	Extensions  *Extensions `json:"extensions,omitempty"`
}

// Extensions holds the links under the key token lists use.
type Extensions struct {
	Twitter string `json:"twitter,omitempty"`
	Website string `json:"website,omitempty"`
}

// NewDocument builds the document of a deploy's metadata. The image and
// link URLs are written as given, never fetched.
func NewDocument(m wire.TokenMetadata) Document {
	d := Document{Name: m.Name, Symbol: m.Symbol, Description: m.Description, Image: m.ImageURL,
		ExternalURL: m.Website, Twitter: m.Twitter, Website: m.Website}
	if m.Twitter != "" || m.Website != "" {
		d.Extensions = &Extensions{Twitter: m.Twitter, Website: m.Website}
	}
	return d
}

// Store keeps documents and answers the uri of each.
type Store interface {
	Put(ctx context.Context, doc Document) (uri string, err error)
}

// HTTPStore posts documents to an upload endpoint, which answers
// {"uri": "..."} with a 2xx status. The endpoint is called "metadata
// upload" in every error: its URL, which may carry the provider's key, is
// never said.
type HTTPStore struct {
	ep     endpoint.Endpoint
	client *http.Client
}

// uploadEndpoint is the name errors give the upload endpoint.
const uploadEndpoint = "metadata upload"

// NewHTTPStore returns the store of the upload endpoint at url; timeout
// bounds each upload.
func NewHTTPStore(url string, timeout time.Duration) *HTTPStore {
	ep := endpoint.New(uploadEndpoint, url)
	return &HTTPStore{ep: ep, client: ep.HTTPClient(timeout)}
}

// Put implements Store. A failure to reach the endpoint, or an answer that
// is not a success, is an *endpoint.Error ("metadata upload: HTTP 503
// Service Unavailable"); an answer without a usable uri says what it
// carries, with the endpoint's URL taken out.
func (s *HTTPStore) Put(ctx context.Context, doc Document) (string, error) {
	body, err := json.Marshal(doc)
	if err != nil {
		return "", fmt.Errorf("encode token metadata: %w", err)
	}
	// The request names the stand-in address; the endpoint's transport
	// sends it to the real URL.
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.ep.StandIn(), bytes.NewReader(body))
	if err != nil {
		return "", s.ep.Clean(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return "", s.ep.Clean(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument))
	if err != nil {
		return "", s.ep.Clean(err)
	}
	var out struct {
		URI string `json:"uri"`
	}
	if err := json.Unmarshal(raw, &out); err != nil || out.URI == "" {
		return "", fmt.Errorf("%s: the answer carries no uri: %s", uploadEndpoint, s.ep.Scrub(strings.TrimSpace(string(raw))))
	}
	if len(out.URI) > MaxURILen {
		return "", fmt.Errorf("%s: uri is %d bytes, the programs accept %d", uploadEndpoint, len(out.URI), MaxURILen)
	}
	return out.URI, nil
}

// Local is the development store: documents are files named by the
// SHA-256 of their bytes in a folder, served by Handler. Its uris are
// BaseURL + "/" + <hash> + ".json".
type Local struct {
	dir     string
	baseURL string
	log     *slog.Logger
}

// NewLocal returns a store keeping documents in dir, whose Handler is
// served at baseURL (for example http://127.0.0.1:8899/metadata).
func NewLocal(dir, baseURL string, log *slog.Logger) (*Local, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("metadata store: %w", err)
	}
	return &Local{dir: dir, baseURL: strings.TrimSuffix(baseURL, "/"), log: log}, nil
}

// Put implements Store without a network round trip.
func (l *Local) Put(_ context.Context, doc Document) (string, error) {
	body, err := json.Marshal(doc)
	if err != nil {
		return "", err
	}
	return l.put(body)
}

func (l *Local) put(body []byte) (string, error) {
	sum := sha256.Sum256(body)
	name := hex.EncodeToString(sum[:]) + ".json"
	path := filepath.Join(l.dir, name)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, body, 0o644); err != nil {
			return "", fmt.Errorf("metadata store: %w", err)
		}
		if err := os.Rename(tmp, path); err != nil {
			return "", fmt.Errorf("metadata store: %w", err)
		}
	}
	return l.baseURL + "/" + name, nil
}

// Handler serves the store: POST a document (answering {"uri"}, as an
// upload endpoint does) and GET /<hash>.json. Mount it with its prefix
// stripped.
func (l *Local) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		name := strings.TrimPrefix(r.URL.Path, "/")
		switch {
		case r.Method == http.MethodPost && name == "":
			l.upload(w, r)
		case (r.Method == http.MethodGet || r.Method == http.MethodHead) && validName(name):
			body, err := os.ReadFile(filepath.Join(l.dir, name))
			if err != nil {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			w.Header().Set("Access-Control-Allow-Origin", "*")
			_, _ = w.Write(body)
		default:
			http.NotFound(w, r)
		}
	})
}

func (l *Local) upload(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxDocument))
	if err != nil {
		http.Error(w, "document too large", http.StatusRequestEntityTooLarge)
		return
	}
	var doc Document
	if err := json.Unmarshal(body, &doc); err != nil || doc.Name == "" || doc.Symbol == "" {
		http.Error(w, "the document must be JSON with a name and a symbol", http.StatusBadRequest)
		return
	}
	// Stored as re-encoded, so that the same document posted with other
	// spacing gets the same uri.
	uri, err := l.Put(r.Context(), doc)
	if err != nil {
		l.log.Error("store token metadata", "err", err)
		http.Error(w, "the store failed", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]string{"uri": uri})
}

// validName reports whether name is a document file name: 64 hex digits
// and .json, so no path can leave the folder.
func validName(name string) bool {
	hexPart, ok := strings.CutSuffix(name, ".json")
	if !ok || len(hexPart) != 64 {
		return false
	}
	_, err := hex.DecodeString(hexPart)
	return err == nil
}
