package ingress

import (
	"bytes"
	"cmp"
	_ "embed"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// openAPIDoc is the OpenAPI 3.1 description of the public API. Tests keep
// it equal to what the server serves: its routes, the fields the request
// decoders read, and the error codes of apierr.
//
//go:embed openapi.json
var openAPIDoc []byte

// OpenAPI returns the OpenAPI 3.1 description of the public API, as
// GET /api/v1/openapi.json serves it.
func OpenAPI() []byte { return slices.Clone(openAPIDoc) }

// listenerEnv names, in the document's servers, the variable of each
// listener's address.
func listenerEnv(l Listener) string {
	if l.Family == wire.FamilyEVM {
		return "TRADEAPI_EVM_ADDR"
	}
	return "TRADEAPI_SOL_" + strings.ToUpper(l.Region) + "_ADDR"
}

// ListenerOpenAPI returns the description as listener l serves it: its
// one server (https when it serves TLS) at its address, and only the paths
// it has (no deploy on the EVM host). Served, the address is the one the
// request named (its Host), so that a tool that reads the description from
// a URL calls the listener at that URL, whatever the listener is bound to.
func ListenerOpenAPI(l Listener, tls bool) ([]byte, error) { return listenerDoc(l, tls, l.Addr) }

// addrSlot stands for the address in a served description until a request
// names it.
const addrSlot = "{the request's host}"

func listenerDoc(l Listener, tls bool, addr string) ([]byte, error) {
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(openAPIDoc))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	servers, _ := doc["servers"].([]any)
	var mine []any
	for _, sv := range servers {
		server, _ := sv.(map[string]any)
		vars, _ := server["variables"].(map[string]any)
		v, _ := vars["address"].(map[string]any)
		if d, _ := v["description"].(string); !strings.Contains(d, listenerEnv(l)) {
			continue
		}
		v["default"] = addr
		if tls {
			server["url"] = strings.Replace(server["url"].(string), "http://", "https://", 1)
		}
		mine = append(mine, server)
	}
	doc["servers"] = mine
	paths, _ := doc["paths"].(map[string]any)
	for p, item := range paths {
		if p == "/api/v1/deploy" && l.Family != wire.FamilySol {
			delete(paths, p)
			continue
		}
		// A path's own servers (deploy: the Solana hosts) would send the
		// tool elsewhere; the document's one server is the answer.
		if m, ok := item.(map[string]any); ok {
			delete(m, "servers")
		}
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// openAPIHandler serves listener l's OpenAPI description, its server at
// the host the request named. The document is the answer itself, not
// wrapped in the success envelope, so that OpenAPI tools can read it from
// the URL.
func openAPIHandler(l Listener, tls bool) (gin.HandlerFunc, error) {
	doc, err := listenerDoc(l, tls, addrSlot)
	if err != nil {
		return nil, err
	}
	slot, _ := json.Marshal(addrSlot)
	return func(c *gin.Context) {
		host, _ := json.Marshal(cmp.Or(c.Request.Host, l.Addr))
		c.Data(http.StatusOK, "application/json; charset=utf-8", bytes.Replace(doc, slot, host, 1))
	}, nil
}
