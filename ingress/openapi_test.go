package ingress

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"log/slog"
	"maps"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// openAPI is the part of the document the tests read.
type openAPI struct {
	OpenAPI string `json:"openapi"`
	Info    struct {
		Title   string `json:"title"`
		Version string `json:"version"`
	} `json:"info"`
	Servers    []oaServer                            `json:"servers"`
	Security   []map[string][]string                 `json:"security"`
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas         map[string]*oaSchema       `json:"schemas"`
		SecuritySchemes map[string]json.RawMessage `json:"securitySchemes"`
	} `json:"components"`
}

type oaServer struct {
	URL       string `json:"url"`
	Variables map[string]struct {
		Default string `json:"default"`
	} `json:"variables"`
}

// address is where the server answers, with its variables at their defaults.
func (s oaServer) address() string {
	u := s.URL
	for name, v := range s.Variables {
		u = strings.ReplaceAll(u, "{"+name+"}", v.Default)
	}
	return u
}

type oaSchema struct {
	Ref        string               `json:"$ref"`
	Enum       []any                `json:"enum"`
	Properties map[string]*oaSchema `json:"properties"`
	Items      *oaSchema            `json:"items"`
	Required   []string             `json:"required"`
}

func loadOpenAPI(t *testing.T) *openAPI {
	t.Helper()
	var doc openAPI
	if err := json.Unmarshal(OpenAPI(), &doc); err != nil {
		t.Fatalf("openapi.json is not valid JSON: %v", err)
	}
	return &doc
}

// schema returns a component schema by name, failing the test if it is missing.
func (d *openAPI) schema(t *testing.T, name string) *oaSchema {
	t.Helper()
	s, ok := d.Components.Schemas[name]
	if !ok {
		t.Fatalf("no schema %s", name)
	}
	return s
}

func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	if !strings.HasPrefix(doc.OpenAPI, "3.1.") {
		t.Fatalf("openapi %q, want 3.1.x", doc.OpenAPI)
	}
	if doc.Info.Version != "1.0.0" || doc.Info.Title == "" {
		t.Fatalf("info %+v, want a title and version 1.0.0", doc.Info)
	}
	var addrs []string
	for _, s := range doc.Servers {
		addrs = append(addrs, s.address())
	}
	if want := []string{"http://127.0.0.1:8080", "http://127.0.0.1:8081", "http://127.0.0.1:8082"}; !slices.Equal(addrs, want) {
		t.Fatalf("servers %v, want %v", addrs, want)
	}
	var bearer struct{ Type, Scheme string }
	if err := json.Unmarshal(doc.Components.SecuritySchemes["bearerAuth"], &bearer); err != nil ||
		bearer.Type != "http" || bearer.Scheme != "bearer" {
		t.Fatalf("bearerAuth scheme %+v (%v), want http bearer", bearer, err)
	}
	if len(doc.Security) != 1 || doc.Security[0]["bearerAuth"] == nil {
		t.Fatalf("security %v, want bearerAuth on every operation", doc.Security)
	}

	// Every reference resolves inside the document.
	var root any
	if err := json.Unmarshal(OpenAPI(), &root); err != nil {
		t.Fatal(err)
	}
	refs := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if r, ok := v["$ref"].(string); ok {
				refs++
				if resolve(root, r) == nil {
					t.Errorf("$ref %s does not resolve", r)
				}
			}
			for _, c := range v {
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	walk(root)
	if refs == 0 {
		t.Fatal("no $ref found")
	}

	// Every response of every operation documents the rate headers and
	// X-Request-Id, directly or through its component.
	for path, item := range doc.Paths {
		for method, raw := range item {
			if !isMethod(method) {
				continue
			}
			var op struct {
				Responses map[string]json.RawMessage `json:"responses"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatal(err)
			}
			for status, r := range op.Responses {
				var resp struct {
					Ref     string                     `json:"$ref"`
					Headers map[string]json.RawMessage `json:"headers"`
				}
				_ = json.Unmarshal(r, &resp)
				if resp.Ref != "" {
					b, _ := json.Marshal(resolve(root, resp.Ref))
					_ = json.Unmarshal(b, &resp)
				}
				for _, h := range append(slices.Clone(rateHeaders), "X-Request-Id") {
					if _, ok := resp.Headers[h]; !ok {
						t.Errorf("%s %s %s: no %s header", method, path, status, h)
					}
				}
				if status == "429" {
					if _, ok := resp.Headers["Retry-After"]; !ok {
						t.Errorf("%s %s 429: no Retry-After header", method, path)
					}
				}
			}
		}
	}
}

// resolve follows a local JSON pointer such as #/components/schemas/Error.
func resolve(root any, ref string) any {
	p, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil
	}
	cur := root
	for _, part := range strings.Split(p, "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		if cur, ok = m[part]; !ok {
			return nil
		}
	}
	return cur
}

func isMethod(s string) bool {
	return slices.Contains([]string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}, s)
}

func TestOpenAPIErrorCodes(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	var got []string
	for _, v := range doc.schema(t, "ErrorCode").Enum {
		s, _ := v.(string)
		got = append(got, s)
	}
	var want []string
	for _, c := range apierr.Codes() {
		want = append(want, string(c))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("ErrorCode enum\n %v\nwant apierr.Codes()\n %v", got, want)
	}
	if ref := doc.schema(t, "Error").Properties["code"].Ref; ref != "#/components/schemas/ErrorCode" {
		t.Fatalf("Error.code is %q, want the ErrorCode schema", ref)
	}
}

// TestOpenAPIRequestFields compares each request schema with the JSON
// fields its decoder reads, taken from the decoder's source: a field added
// to a decoder and not to the document, or documented and not read, fails.
func TestOpenAPIRequestFields(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	swap := decoderFields(t, "request.go", "decodeSwap", "*swapDecoder")
	deploy := decoderFields(t, "deploy.go", "decodeDeploy", "*deployDecoder", "decodeBuy")
	launch := decoderFields(t, "deploy.go", "decodeLaunch")
	auto := decoderFields(t, "../shared/wire/autoorder.go", "decodeAutoOrder", "*AutoOrder")
	union := func(sets ...[]string) []string {
		var out []string
		for _, s := range sets {
			out = append(out, s...)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	tests := []struct {
		schema string
		read   []string
	}{
		{"SwapRequest", swap["f"]},
		{"SwapWallet", swap["wf"]},
		{"AutoOrder", auto["fields"]},
		{"DeployRequest", deploy["f"]},
		{"DeployMetadata", deploy["mf"]},
		{"DeployConfig", union(deploy["cf"], launch["cf"])},
		{"launch data", launch["df"]},
		{"DeployBuy", deploy["bf"]},
	}
	for _, tc := range tests {
		t.Run(tc.schema, func(t *testing.T) {
			if len(tc.read) == 0 {
				t.Fatal("found no field the decoder reads: the decoder changed shape, update decoderFields")
			}
			var got []string
			if tc.schema == "launch data" {
				for _, v := range []string{"PumpFunData", "BonkData", "BagsData"} {
					got = append(got, slices.Collect(maps.Keys(doc.schema(t, v).Properties))...)
				}
				slices.Sort(got)
			} else {
				got = slices.Sorted(maps.Keys(doc.schema(t, tc.schema).Properties))
			}
			if !slices.Equal(got, tc.read) {
				t.Fatalf("schema properties\n %v\nfields the decoder reads\n %v", got, tc.read)
			}
		})
	}

	// The nested schemas hang where the decoders read them.
	links := []struct{ schema, prop, item, want string }{
		{"SwapRequest", "wallets", "items", "SwapWallet"},
		{"SwapRequest", "auto_orders", "items", "AutoOrder"},
		{"DeployRequest", "metadata", "", "DeployMetadata"},
		{"DeployRequest", "configs", "items", "DeployConfig"},
		{"DeployRequest", "buys", "items", "DeployBuy"},
	}
	for _, l := range links {
		p := doc.schema(t, l.schema).Properties[l.prop]
		if l.item != "" {
			p = p.Items
		}
		if p == nil || p.Ref != "#/components/schemas/"+l.want {
			t.Errorf("%s.%s does not refer to %s", l.schema, l.prop, l.want)
		}
	}
	for schema, req := range map[string][]string{
		"SwapRequest": {"address", "side"}, "SwapWallet": {"address"},
		"DeployRequest": {"configs", "metadata", "wallet_address"}, "DeployMetadata": {"name", "symbol"},
	} {
		if got := slices.Sorted(slices.Values(doc.schema(t, schema).Required)); !slices.Equal(got, req) {
			t.Errorf("%s requires %v, want %v", schema, got, req)
		}
	}
}

// TestOpenAPIResponseFields compares the response schemas with the JSON
// names of the types the server renders.
func TestOpenAPIResponseFields(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	for schema, v := range map[string]any{
		"SwapResult":     swapResult{},
		"Order":          orderView{},
		"OrderSignature": wire.SigState{},
		"TaxProbe":       wire.TaxProbe{},
		"AutoOrder":      wire.AutoOrder{},
		"Bundle":         wire.Bundle{},
		"Error":          apierr.Body{},
	} {
		got := slices.Sorted(maps.Keys(doc.schema(t, schema).Properties))
		if want := jsonNames(reflect.TypeOf(v)); !slices.Equal(got, want) {
			t.Errorf("%s properties\n %v\nwant the fields of %T\n %v", schema, got, v, want)
		}
	}
}

// TestOpenAPIBundleStates holds the document's bundle states to those the
// broadcaster writes.
func TestOpenAPIBundleStates(t *testing.T) {
	t.Parallel()
	got := loadOpenAPI(t).schema(t, "Bundle").Properties["state"].Enum
	want := []any{wire.BundlePending, wire.BundleLanded, wire.BundleFailed, wire.BundleDropped, wire.BundleInvalid, wire.BundlePendingTimeout}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("bundle states %v, want %v", got, want)
	}
}

// TestOrderViewShowsBundlesAndRent renders an order that closed a token
// account and sent a bundle: the lookup shows the rent returned on the
// signature and the relay's verdict under bundles, and neither field when
// the order has none.
func TestOrderViewShowsBundlesAndRent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		order wire.Order
		want  []string // fragments of the rendered JSON
		never []string
	}{
		{"a sell of everything sent as a bundle", wire.Order{OrderID: "eu-1", Kind: wire.KindSwap, State: wire.StateConfirmed,
			Signatures: []wire.SigState{{Signature: "s1", Wallet: "w1", State: wire.StateConfirmed, RentReturnedLamports: 2_039_280}},
			Bundles:    []wire.Bundle{{ID: "b1", Relay: "solana relay", State: wire.BundleLanded, Slot: 42, Signatures: []string{"s1"}}}},
			[]string{`"signatures":[{"signature":"s1","wallet":"w1","state":"confirmed","rent_returned_lamports":2039280}]`,
				`"bundles":[{"id":"b1","relay":"solana relay","state":"landed","slot":42,"signatures":["s1"]}]`}, nil},
		{"a dropped bundle", wire.Order{OrderID: "eu-2", Kind: wire.KindDeploy, State: wire.StateFailed,
			Bundles: []wire.Bundle{{State: wire.BundleDropped, Reason: "bundle relay: no tip", Signatures: []string{"s2"}}}},
			[]string{`"bundles":[{"id":"","state":"dropped","reason":"bundle relay: no tip","signatures":["s2"]}]`}, nil},
		{"a partial sell sent publicly", wire.Order{OrderID: "eu-3", Kind: wire.KindSwap, State: wire.StateConfirmed,
			Signatures: []wire.SigState{{Signature: "s3", Wallet: "w3", State: wire.StateConfirmed}}},
			nil, []string{"rent_returned_lamports", "bundles"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := json.Marshal(viewOf(&tc.order))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range tc.want {
				if !strings.Contains(string(body), f) {
					t.Errorf("view %s\nlacks %s", body, f)
				}
			}
			for _, f := range tc.never {
				if strings.Contains(string(body), f) {
					t.Errorf("view %s\nhas %s", body, f)
				}
			}
		})
	}
}

func jsonNames(typ reflect.Type) []string {
	var out []string
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// TestOpenAPIRoutes compares the document's operations with the routes each
// listener serves: the same methods and paths, and deploy on the Solana
// hosts only.
func TestOpenAPIRoutes(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	s, err := New(Config{Listeners: []Listener{{Family: wire.FamilySol, Region: "eu"}}}, Deps{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	param := regexp.MustCompile(`:[^/]+|\{[^}]+\}`)
	hosts := []struct {
		l    Listener
		addr string
	}{
		{Listener{Family: wire.FamilySol, Region: "eu"}, "http://127.0.0.1:8080"},
		{Listener{Family: wire.FamilySol, Region: "us"}, "http://127.0.0.1:8081"},
		{Listener{Family: wire.FamilyEVM}, "http://127.0.0.1:8082"},
	}
	for _, h := range hosts {
		t.Run(h.l.Name(), func(t *testing.T) {
			var served []string
			for _, r := range s.Handler(h.l).(*gin.Engine).Routes() {
				// HEAD answers every GET path, as HTTP has it: the
				// document lists the GET.
				if r.Method != http.MethodHead {
					served = append(served, r.Method+" "+param.ReplaceAllString(r.Path, "{}"))
				}
			}
			var documented []string
			for path, item := range doc.Paths {
				servers := doc.Servers
				if raw, ok := item["servers"]; ok {
					servers = nil
					if err := json.Unmarshal(raw, &servers); err != nil {
						t.Fatal(err)
					}
				}
				if !slices.ContainsFunc(servers, func(s oaServer) bool { return s.address() == h.addr }) {
					continue
				}
				for method := range item {
					if isMethod(method) {
						documented = append(documented, strings.ToUpper(method)+" "+param.ReplaceAllString(path, "{}"))
					}
				}
			}
			sort.Strings(served)
			sort.Strings(documented)
			if !slices.Equal(served, documented) {
				t.Fatalf("served\n %v\ndocumented for %s\n %v", served, h.addr, documented)
			}
		})
	}
}

// TestOpenAPIServed fetches the description as a client does: behind the
// Bearer key of the host's family, like every path.
func TestOpenAPIServed(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budget.DefaultLimits, allChains{})
	for _, tc := range []struct {
		name, url, key string
		status         int
	}{
		{"no key", h.eu.URL, "", http.StatusUnauthorized},
		{"key of the other family", h.evm.URL, solKey, http.StatusUnauthorized},
		{"solana eu", h.eu.URL, solKey, http.StatusOK},
		{"solana us", h.us.URL, solKey, http.StatusOK},
		{"evm", h.evm.URL, evmKey, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := call(t, "GET", tc.url+"/api/v1/openapi.json", tc.key, "", "")
			checkRateHeaders(t, a)
			if a.status != tc.status {
				t.Fatalf("status %d, want %d: %s", a.status, tc.status, a.raw)
			}
			if tc.status == http.StatusOK {
				servedDoc(t, a.raw, strings.TrimPrefix(tc.url, "http://"), tc.key == evmKey)
			}
			if tc.status != http.StatusOK && a.code() != string(apierr.Unauthorized) {
				t.Fatalf("code %q, want UNAUTHORIZED", a.code())
			}
		})
	}
}

// servedDoc checks a listener's description: the whole document but for
// its one server, the listener's own address, and the paths it has.
func servedDoc(t *testing.T, raw, addr string, evm bool) {
	t.Helper()
	var got, whole map[string]any
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(OpenAPI(), &whole); err != nil {
		t.Fatal(err)
	}
	servers, _ := got["servers"].([]any)
	if len(servers) != 1 {
		t.Fatalf("servers %v, want the listener's one", got["servers"])
	}
	def := servers[0].(map[string]any)["variables"].(map[string]any)["address"].(map[string]any)["default"]
	if def != addr {
		t.Errorf("server address %v, want the listener's %s", def, addr)
	}
	paths, wholePaths := got["paths"].(map[string]any), whole["paths"].(map[string]any)
	for p, item := range wholePaths {
		served, ok := paths[p].(map[string]any)
		if p == "/api/v1/deploy" && evm {
			if ok {
				t.Error("the EVM host describes deploy, which it does not serve")
			}
			continue
		}
		if !ok {
			t.Errorf("path %s left out", p)
			continue
		}
		delete(item.(map[string]any), "servers")
		if !reflect.DeepEqual(served, item) {
			t.Errorf("path %s differs from the document's", p)
		}
	}
	delete(got, "servers")
	delete(got, "paths")
	delete(whole, "servers")
	delete(whole, "paths")
	if !reflect.DeepEqual(got, whole) {
		t.Error("the served description differs from the document beyond its servers and paths")
	}
}

// TestListenerOpenAPIOverTLS: a listener serving TLS describes an https
// server.
func TestListenerOpenAPIOverTLS(t *testing.T) {
	t.Parallel()
	doc, err := ListenerOpenAPI(Listener{Addr: "10.0.0.5:443", Family: wire.FamilySol, Region: "us"}, true)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Servers []struct {
			URL       string
			Variables map[string]struct{ Default string }
		}
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Servers) != 1 || !strings.HasPrefix(d.Servers[0].URL, "https://") || d.Servers[0].Variables["address"].Default != "10.0.0.5:443" {
		t.Fatalf("servers %+v", d.Servers)
	}
}

func TestOpenAPIReturnsACopy(t *testing.T) {
	t.Parallel()
	b := OpenAPI()
	b[0] = 'x'
	if OpenAPI()[0] == 'x' {
		t.Fatal("OpenAPI returns the embedded bytes; a caller could change what is served")
	}
}

// decoderFields returns, per fields variable of the functions fns in file
// (a name, or "*T" for every method of *T), the JSON names they read:
// v.str("name") and the other accessors (v may be d.f), v["name"],
// feeUnits(v, "name", ...), lamports(v, "name"), number(v, at, "name"), a
// local function called as fn("name") (under its name), and the field-name
// literals of a table that a loop ranges over while reading v with a name
// from the table.
func decoderFields(t *testing.T, file string, fns ...string) map[string][]string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var bodies []*ast.BlockStmt
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && slices.Contains(fns, funcName(fd)) {
			bodies = append(bodies, fd.Body)
		}
	}
	if len(bodies) == 0 {
		t.Fatalf("no func %v in %s", fns, file)
	}
	fieldName := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	lit := func(e ast.Expr) (string, bool) {
		bl, ok := e.(*ast.BasicLit)
		if !ok || bl.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(bl.Value)
		return s, err == nil && fieldName.MatchString(s)
	}
	accessors := []string{"str", "float", "boolean", "number", "present", "whole"}
	// byName are the functions that take the fields variable and the
	// field's name as arguments: the index of each.
	byName := map[string][2]int{"feeUnits": {0, 1}, "lamports": {0, 1}, "enum": {0, 1}, "number": {0, 2}}
	out := map[string][]string{}
	add := func(v, name string) {
		if !slices.Contains(out[v], name) {
			out[v] = append(out[v], name)
		}
	}
	// reader returns the fields variable a call reads, and its name
	// argument.
	reader := func(call *ast.CallExpr) (v string, arg ast.Expr, ok bool) {
		switch fun := call.Fun.(type) {
		case *ast.SelectorExpr:
			if id := lastIdent(fun.X); id != "" && slices.Contains(accessors, fun.Sel.Name) && len(call.Args) > 0 {
				return id, call.Args[0], true
			}
		case *ast.Ident:
			if at, known := byName[fun.Name]; known && len(call.Args) > at[1] {
				if id := lastIdent(call.Args[at[0]]); id != "" {
					return id, call.Args[at[1]], true
				}
			}
			if len(call.Args) > 0 {
				return fun.Name, call.Args[0], true
			}
		}
		return "", nil, false
	}
	for _, body := range bodies {
		inspectDecoder(body, lit, reader, add)
	}
	for v := range out {
		slices.Sort(out[v])
	}
	return out
}

// funcName names a function declaration as decoderFields is asked for it:
// its name, or "*T" for any method of *T.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		if star, ok := fd.Recv.List[0].Type.(*ast.StarExpr); ok {
			if id, ok := star.X.(*ast.Ident); ok {
				return "*" + id.Name
			}
		}
	}
	return fd.Name.Name
}

// lastIdent returns the name of a variable or of the last field of a
// selector (f in d.f), "" for anything else.
func lastIdent(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	}
	return ""
}

// inspectDecoder adds every field a decoder body reads: through an
// accessor or a byName function with a literal name, by index, or by
// ranging over a table of names.
func inspectDecoder(body *ast.BlockStmt, lit func(ast.Expr) (string, bool),
	reader func(*ast.CallExpr) (string, ast.Expr, bool), add func(v, name string)) {
	tables := map[string]*ast.CompositeLit{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if id, ok := n.Lhs[0].(*ast.Ident); ok {
					if cl, ok := n.Rhs[0].(*ast.CompositeLit); ok {
						tables[id.Name] = cl
					}
				}
			}
		case *ast.CallExpr:
			if v, arg, ok := reader(n); ok {
				if name, ok := lit(arg); ok {
					add(v, name)
				}
			}
		case *ast.IndexExpr:
			if id := lastIdent(n.X); id != "" {
				if name, ok := lit(n.Index); ok {
					add(id, name)
				}
			}
		case *ast.RangeStmt:
			var table *ast.CompositeLit
			switch x := n.X.(type) {
			case *ast.CompositeLit:
				table = x
			case *ast.Ident:
				table = tables[x.Name]
			}
			if table == nil {
				return true
			}
			ast.Inspect(n.Body, func(m ast.Node) bool {
				call, ok := m.(*ast.CallExpr)
				if !ok {
					return true
				}
				v, arg, ok := reader(call)
				if _, isLit := lit(arg); !ok || isLit {
					return true
				}
				ast.Inspect(table, func(e ast.Node) bool {
					if x, ok := e.(ast.Expr); ok {
						if name, ok := lit(x); ok {
							add(v, name)
						}
					}
					return true
				})
				return true
			})
		}
		return true
	})
}
