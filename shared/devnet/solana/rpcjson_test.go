package solana

import (
	"bytes"
	"encoding/json"
	"testing"
)

// plainSeeds are requests in and out of the plain form.
var plainSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"getHealth"}`,
	`{"jsonrpc":"2.0","id":"a<b>","method":"getBalance","params":["11111111111111111111111111111111",{"commitment":"confirmed"}]}`,
	" {\n\"params\" : [ \"x\" , null , 5, [\"]\"], {\"a\":\"\\\"}\"} ] ,\t\"method\":\"m\",\"id\":-1.5e3,\"jsonrpc\":\"2.0\"}\r\n",
	`{"jsonrpc":"2.0","id":null,"method":"m","params":null}`,
	`{"jsonrpc":"2.0","id":true,"method":"m","params":[]}`,
	`{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}`,
	`{"jsonrpc":"2.0","ID":1,"method":"m"}`,
	`{"jsonrpc":"2.0","id":01,"method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":["a" "b"]}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":["a",]}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":[1}]}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m\u00e9"}`,
	`{"jsonrpc":"1.0","id":1,"method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":""}`,
	`{"jsonrpc":"2.0","id":1,"method":"m"} x`,
	`[{"jsonrpc":"2.0","id":1,"method":"m"}]`,
	``,
}

// FuzzPlainRequest checks that a request read in the plain form is read as
// the decoder reads it: the same version, id, method and parameters.
func FuzzPlainRequest(f *testing.F) {
	for _, s := range plainSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		orig := bytes.Clone(raw)
		req, params, ok := parsePlainRequest(raw)
		if !bytes.Equal(raw, orig) {
			t.Fatalf("the request was written to: %q", raw)
		}
		if !ok {
			return
		}
		var want rpcRequest
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("read %q in the plain form, the decoder refuses it: %v", raw, err)
		}
		if want.JSONRPC != "2.0" || want.Method == "" {
			t.Fatalf("read %q in the plain form, the decoder finds it invalid", raw)
		}
		wantParams, perr := splitParams(want.Params)
		if perr != nil {
			t.Fatalf("read %q in the plain form, its parameters are refused: %v", raw, perr)
		}
		if req.JSONRPC != want.JSONRPC || req.Method != want.Method || !bytes.Equal(req.ID, want.ID) {
			t.Fatalf("%q: read %q %q %q, the decoder %q %q %q", raw, req.JSONRPC, req.Method, req.ID, want.JSONRPC, want.Method, want.ID)
		}
		if len(params) != len(wantParams) {
			t.Fatalf("%q: %d parameters, the decoder %d", raw, len(params), len(wantParams))
		}
		for i := range params {
			if !bytes.Equal(params[i], wantParams[i]) {
				t.Fatalf("%q: parameter %d is %q, the decoder's %q", raw, i, params[i], wantParams[i])
			}
		}
	})
}

// FuzzParamDecode checks that a string or a list of strings taken as it is
// equals what the decoder makes of it, and that a valid array is split as
// the decoder splits it.
func FuzzParamDecode(f *testing.F) {
	for _, s := range []string{`"abc"`, `"a\"b"`, `"é"`, `""`, `["a","b"]`, `[]`, `[ "a" , null ]`, `["a",5]`, `[["a"],{"b":"]"}]`, `"\u0041"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if s, ok := plainString(raw); ok {
			var want string
			if err := json.Unmarshal(raw, &want); err != nil || want != s {
				t.Fatalf("%q: plain %q, the decoder %q %v", raw, s, want, err)
			}
		}
		if s, ok := plainStrings(raw); ok {
			var want []string
			if err := json.Unmarshal(raw, &want); err != nil || len(want) != len(s) {
				t.Fatalf("%q: plain %q, the decoder %q %v", raw, s, want, err)
			}
			for i := range s {
				if s[i] != want[i] {
					t.Fatalf("%q: plain %q, the decoder %q", raw, s, want)
				}
			}
		}
		if len(raw) > 0 && raw[0] == '[' && json.Valid(raw) {
			var want rpcParams
			if err := json.Unmarshal(raw, &want); err != nil {
				return
			}
			p, ok := splitArray(raw)
			if !ok || len(p) != len(want) {
				t.Fatalf("%q: split into %q (%v), the decoder %q", raw, p, ok, want)
			}
			for i := range p {
				if !bytes.Equal(p[i], want[i]) {
					t.Fatalf("%q: split into %q, the decoder %q", raw, p, want)
				}
			}
		}
	})
}

// TestAppendResultIsTheEncoders checks that a successful answer written
// directly is what json.Encoder writes for it, byte for byte.
func TestAppendResultIsTheEncoders(t *testing.T) {
	results := []any{"ok", nil, uint64(7), map[string]any{"b": "<&>", "a": []string{"x\u2028"}},
		withContext{rpcContext{Slot: 3, APIVersion: rpcAPIVersion}, &rpcAccount{Data: []string{"AAE=", "base64"}, Owner: "o"}}}
	ids := []string{`1`, `"a<b>&c"`, ` 7 `, `-0.5e10`, `null`, `[1, {"x" : "<"}]`, ``, `"\u2028"`}
	for _, res := range results {
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			r := rpcResponse{JSONRPC: "2.0", ID: json.RawMessage(id), Result: b}
			if id == "" {
				r.ID = nil // a call without an id
			}
			var want bytes.Buffer
			if err := json.NewEncoder(&want).Encode(r); err != nil {
				t.Fatal(err)
			}
			if got := r.appendResult(nil); !bytes.Equal(got, want.Bytes()) {
				t.Errorf("id %s result %s: wrote %q, the encoder %q", id, b, got, want.Bytes())
			}
		}
	}
	if got := (rpcResponse{JSONRPC: "2.0", ID: json.RawMessage(`1`), Error: &rpcError{Code: 1}}).appendResult(nil); got != nil {
		t.Errorf("an error answer was written directly: %q", got)
	}
}
