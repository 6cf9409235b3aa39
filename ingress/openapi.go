package ingress

import (
	_ "embed"
	"net/http"
	"slices"

	"github.com/gin-gonic/gin"
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

// OpenAPIHandler serves the OpenAPI description. The document is the answer
// itself, not wrapped in the success envelope, so that OpenAPI tools can
// read it from the URL.
func OpenAPIHandler(c *gin.Context) {
	c.Data(http.StatusOK, "application/json; charset=utf-8", openAPIDoc)
}
