package solana

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"time"
)

// TxViewHandler serves a read-only view of one transaction of the local
// chain at GET /solana/tx/<signature>: an HTML page, or with ?format=json
// the getTransaction result. It is what the account manager's console links
// a signature to when Solana is the local chain, standing in for a public
// explorer. Mount it at "/solana/tx/".
func (c *Chain) TxViewHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		sig := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
		view := txView{Signature: sig}
		status := http.StatusOK
		res, rerr := c.transactionJSON(sig)
		switch {
		case rerr != nil:
			status, view.Problem = http.StatusBadRequest, "not a transaction signature"
		case res == nil:
			status, view.Problem = http.StatusNotFound, "the local chain has no record of this transaction"
		default:
			view.fill(res)
		}
		if r.URL.Query().Get("format") == "json" {
			writeTxJSON(w, status, res, view.Problem)
			return
		}
		writeTxHTML(w, status, &view)
	})
}

// transactionJSON is getTransaction of sig in the json encoding, nil when
// the chain has no record of it.
func (c *Chain) transactionJSON(sig string) (map[string]any, *rpcError) {
	p, _ := json.Marshal(sig)
	res, rerr := rpcGetTransaction(c, rpcParams{p, json.RawMessage(`{"encoding":"json","maxSupportedTransactionVersion":0}`)})
	if rerr != nil || res == nil {
		return nil, rerr
	}
	return res.(map[string]any), nil
}

// txView is what the page shows.
type txView struct {
	Signature string
	Problem   string
	Fields    [][2]string
	Logs      []string
}

func (v *txView) fill(res map[string]any) {
	meta, _ := res["meta"].(map[string]any)
	status := "success"
	if meta != nil && meta["err"] != nil {
		b, _ := json.Marshal(meta["err"])
		status = "failed: " + string(b)
	}
	v.Fields = append(v.Fields, [2]string{"Status", status}, [2]string{"Slot", fmt.Sprint(res["slot"])})
	if bt, ok := res["blockTime"].(int64); ok {
		v.Fields = append(v.Fields, [2]string{"Block time", time.Unix(bt, 0).UTC().Format(time.RFC3339)})
	}
	if meta != nil {
		v.Fields = append(v.Fields, [2]string{"Fee (lamports)", fmt.Sprint(meta["fee"])},
			[2]string{"Compute units", fmt.Sprint(meta["computeUnitsConsumed"])})
		v.Logs, _ = meta["logMessages"].([]string)
	}
	if tx, ok := res["transaction"].(map[string]any); ok {
		if msg, ok := tx["message"].(map[string]any); ok {
			if keys, ok := msg["accountKeys"].([]string); ok {
				v.Fields = append(v.Fields, [2]string{"Accounts", strings.Join(keys, "\n")})
			}
		}
	}
}

func writeTxJSON(w http.ResponseWriter, status int, res map[string]any, problem string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	var body any = res
	if problem != "" {
		body = map[string]string{"error": problem}
	}
	_ = json.NewEncoder(w).Encode(body)
}

// The page has no script and no style: a strict policy costs nothing.
const txViewCSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

func writeTxHTML(w http.ResponseWriter, status int, v *txView) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", txViewCSP)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	_ = txViewPage.Execute(w, v)
}

var txViewPage = template.Must(template.New("tx").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Local Solana transaction</title></head>
<body>
<h1>Local Solana transaction (test double)</h1>
<p><code>{{.Signature}}</code></p>
{{if .Problem}}<p role="alert">{{.Problem}}</p>{{else}}
<table>
{{range .Fields}}<tr><th scope="row">{{index . 0}}</th><td><pre>{{index . 1}}</pre></td></tr>
{{end}}</table>
<h2>Logs</h2>
<pre>{{range .Logs}}{{.}}
{{end}}</pre>
<p><a href="?format=json">The whole getTransaction result as JSON</a></p>
{{end}}
</body></html>
`))
