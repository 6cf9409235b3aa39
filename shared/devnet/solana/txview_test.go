package solana

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sol "github.com/gagliardetto/solana-go"
)

func TestTxView(t *testing.T) {
	c, cl := newTestChain(t)
	from := newWallet(t, c, 10*sol1)
	to := newWallet(t, c, 0)
	sig, err := send(cl, signTx(t, latest(t, cl), from, []sol.Instruction{transferIx(from.PublicKey(), to.PublicKey(), sol1)}), false)
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/solana/tx/", c.TxViewHandler())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	get := func(path string) (int, http.Header, string) {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(b)
	}

	status, h, body := get("/solana/tx/" + sig.String())
	if status != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
		t.Fatalf("page: %d %s", status, h.Get("Content-Type"))
	}
	for _, want := range []string{sig.String(), "success", to.PublicKey().String(), "Fee (lamports)"} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Errorf("CSP = %q", h.Get("Content-Security-Policy"))
	}

	status, _, body = get("/solana/tx/" + sig.String() + "?format=json")
	var res struct {
		Slot uint64 `json:"slot"`
		Meta struct {
			Fee uint64 `json:"fee"`
		} `json:"meta"`
	}
	if status != http.StatusOK || json.Unmarshal([]byte(body), &res) != nil || res.Meta.Fee != 5000 {
		t.Fatalf("json: %d %s", status, body)
	}

	unknown := sol.SignatureFromBytes(make([]byte, 64)).String()
	if status, _, _ := get("/solana/tx/" + unknown); status != http.StatusNotFound {
		t.Errorf("unknown signature: %d, want 404", status)
	}
	if status, _, _ := get("/solana/tx/not-a-signature"); status != http.StatusBadRequest {
		t.Errorf("malformed signature: %d, want 400", status)
	}
}
