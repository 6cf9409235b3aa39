package evm

import (
	"context"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// TxViewHandler serves a read-only view of one transaction of a local
// chain at GET /evm/<chain>/tx/<hash>: an HTML page, or with ?format=json
// the transaction and its receipt as eth_getTransactionByHash and
// eth_getTransactionReceipt give them. It is what the account manager's
// console links a hash to when the chain is local, standing in for a
// public explorer. Mount it at "/evm/{chain}/tx/{hash}".
func (cs *Chains) TxViewHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		// /evm/<chain>/tx/<hash>
		parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")
		view := txView{}
		status := http.StatusOK
		var res *txJSON
		switch c, ok := cs.chainOfPath(parts); {
		case !ok:
			status, view.Problem = http.StatusNotFound, "no such local chain"
		case !isTxHash(parts[3]):
			view.Chain, view.Hash = c.Name(), parts[3]
			status, view.Problem = http.StatusBadRequest, "not a transaction hash"
		default:
			view.Chain, view.Hash = c.Name(), parts[3]
			ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
			defer cancel()
			var err error
			if res, err = c.lookupTx(ctx, common.HexToHash(parts[3])); errors.Is(err, ethereum.NotFound) {
				status, view.Problem = http.StatusNotFound, "the local chain has no record of this transaction"
			} else if err != nil {
				status, view.Problem = http.StatusInternalServerError, "the local chain could not be read"
			} else {
				view.fill(c, res)
			}
		}
		if r.URL.Query().Get("format") == "json" {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("X-Content-Type-Options", "nosniff")
			w.WriteHeader(status)
			var body any = res
			if view.Problem != "" {
				body = map[string]string{"error": view.Problem}
			}
			_ = json.NewEncoder(w).Encode(body)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		// The page has no script and no style: a strict policy costs nothing.
		w.Header().Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.WriteHeader(status)
		_ = txViewPage.Execute(w, &view)
	})
}

func (cs *Chains) chainOfPath(parts []string) (*Chain, bool) {
	if len(parts) != 4 || parts[0] != "evm" || parts[2] != "tx" {
		return nil, false
	}
	c, ok := cs.chains[parts[1]]
	return c, ok
}

func isTxHash(s string) bool {
	b, err := hexutil.Decode(s)
	return err == nil && len(b) == common.HashLength
}

// txJSON is a transaction and, once mined, its receipt.
type txJSON struct {
	Transaction *types.Transaction `json:"transaction"`
	Receipt     *types.Receipt     `json:"receipt"`
	From        common.Address     `json:"from"`
}

func (c *Chain) lookupTx(ctx context.Context, hash common.Hash) (*txJSON, error) {
	tx, _, err := c.client.TransactionByHash(ctx, hash)
	if err != nil {
		return nil, err
	}
	out := &txJSON{Transaction: tx}
	if from, err := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx); err == nil {
		out.From = from
	}
	rcpt, err := c.client.TransactionReceipt(ctx, hash)
	if err != nil && !errors.Is(err, ethereum.NotFound) {
		return nil, err
	}
	out.Receipt = rcpt
	return out, nil
}

// txView is what the page shows.
type txView struct {
	Chain, Hash, Problem string
	Fields               [][2]string
}

func (v *txView) fill(c *Chain, res *txJSON) {
	tx := res.Transaction
	status := "pending"
	if r := res.Receipt; r != nil {
		status = "failed (reverted)"
		if r.Status == types.ReceiptStatusSuccessful {
			status = "success"
		}
	}
	to := "contract creation"
	if tx.To() != nil {
		to = tx.To().Hex()
	}
	v.Fields = [][2]string{{"Status", status}, {"Chain id", c.ChainID().String()}, {"From", res.From.Hex()},
		{"To", to}, {"Value (wei)", tx.Value().String()}, {"Nonce", hexutil.EncodeUint64(tx.Nonce())}}
	if r := res.Receipt; r != nil {
		v.Fields = append(v.Fields, [2]string{"Block", r.BlockNumber.String()},
			[2]string{"Gas used", hexutil.EncodeUint64(r.GasUsed)}, [2]string{"Logs", hexutil.EncodeUint64(uint64(len(r.Logs)))})
	}
}

var txViewPage = template.Must(template.New("tx").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Local {{.Chain}} transaction</title></head>
<body>
<h1>Local {{.Chain}} transaction (test double)</h1>
<p><code>{{.Hash}}</code></p>
{{if .Problem}}<p role="alert">{{.Problem}}</p>{{else}}
<table>
{{range .Fields}}<tr><th scope="row">{{index . 0}}</th><td><code>{{index . 1}}</code></td></tr>
{{end}}</table>
<p><a href="?format=json">The transaction and its receipt as JSON</a></p>
{{end}}
</body></html>
`))
