package broadcaster

import (
	"context"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	sol "github.com/gagliardetto/solana-go"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// keyed is a provider URL: its key in the path and in the query.
const keyed = "/sekret-path-KEY123?api-key=KEY456"

// limitedRPC is an RPC that answers every call 429; calls counts them.
func limitedRPC(t *testing.T) (url string, calls *atomic.Int64) {
	calls = &atomic.Int64{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		http.Error(w, "", http.StatusTooManyRequests)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + keyed, calls
}

// refusingRPC is an address where nothing listens.
func refusingRPC(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr + keyed
}

// evmTx is a signed EVM transfer of a new wallet.
func evmTx(t *testing.T, private bool) wire.SignedTx {
	t.Helper()
	key, _ := crypto.GenerateKey()
	signer := types.LatestSignerForChainID(big.NewInt(8453))
	tx, err := types.SignNewTx(key, signer, &types.DynamicFeeTx{ChainID: big.NewInt(8453), GasTipCap: big.NewInt(1e9),
		GasFeeCap: big.NewInt(1e11), Gas: 21_000, To: &payee, Value: big.NewInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tx.MarshalBinary()
	return wire.SignedTx{Wallet: crypto.PubkeyToAddress(key.PublicKey).Hex(), Signature: tx.Hash().Hex(), Raw: raw, Private: private}
}

// solanaTx is a Solana transaction's bytes as far as an RPC that never
// reads them is concerned.
func solanaTx(private bool) wire.SignedTx {
	return wire.SignedTx{Wallet: sol.NewWallet().PublicKey().String(), Signature: sol.Signature{1, 2, 3}.String(),
		Raw: []byte("signed transaction"), Private: private, LastValidBlockHeight: 1}
}

// TestSecretsStayOutOfText sends Solana and EVM orders through the
// broadcaster to RPCs and relays whose URLs carry keys, one answering 429
// and one refusing connections: the reply to ingress, the stored order, the
// events and the logs say which endpoint failed and how, and carry no part
// of any URL.
func TestSecretsStayOutOfText(t *testing.T) {
	t.Parallel()
	limited, calls := limitedRPC(t)
	refusing := refusingRPC(t)
	ctx := context.Background()
	baseRPC, err := endpoint.New("base rpc", refusing).DialEVM(ctx, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	baseRelay, err := endpoint.New("base relay", limited).DialEVM(ctx, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	chains := map[string]Chain{
		wire.ChainSolana: NewSolana(endpoint.New("solana rpc", limited).SolanaRPC(time.Second), false).
			WithBundleRelay(NewBundleRelay(endpoint.New("solana relay", refusing), time.Second)),
		"base": NewEVM(baseRPC, baseRelay, EVMConfig{}),
	}
	p := newPipeline(t)
	p.start(t, Config{MaxAttempts: 2, Poll: 20 * time.Millisecond}, chains)

	publicEVM, privateEVM := evmTx(t, false), evmTx(t, true)
	cases := []struct {
		name, orderID, chain string
		family               wire.Family
		tx                   wire.SignedTx
		reason               string
	}{
		{"solana rpc answers 429", "eu-secret-1", wire.ChainSolana, wire.FamilySol, solanaTx(false),
			"send transaction: solana rpc: HTTP 429 Too Many Requests"},
		{"solana relay refuses connections", "eu-secret-2", wire.ChainSolana, wire.FamilySol, solanaTx(true),
			"send bundle: solana relay: connection refused"},
		{"base rpc refuses connections", "evm-secret-3", "base", wire.FamilyEVM, publicEVM,
			"send transaction " + publicEVM.Signature + ": base rpc: connection refused"},
		{"base relay answers 429", "evm-secret-4", "base", wire.FamilyEVM, privateEVM,
			"send transaction " + privateEVM.Signature + ": base relay: HTTP 429 Too Many Requests"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := p.send(t, batchOf(tc.orderID, tc.chain, tc.family, tc.tx))
			wantMsg := "the chain RPC did not answer: " + tc.reason
			if r.Error == nil || r.Error.Code != apierr.UpstreamTimeout || r.Error.Message != wantMsg || len(r.Signatures) != 0 {
				t.Fatalf("reply %+v, want UPSTREAM_TIMEOUT %q", r, wantMsg)
			}
			o := p.orderIn(t, tc.orderID, 5*time.Second, wire.StateFailed)
			if o.Error == nil || o.Error.Message != wantMsg || len(o.Signatures) != 1 || o.Signatures[0].Error != tc.reason {
				t.Fatalf("stored order %+v, error %+v", o, o.Error)
			}
		})
	}
	// Both 429 endpoints were asked twice per order: the batch was tried
	// again before it was given up.
	if n := calls.Load(); n != 4 {
		t.Fatalf("the limited endpoints got %d calls, want 4", n)
	}
	names := []string{"solana rpc: HTTP 429", "solana relay: connection refused", "base rpc: connection refused", "base relay: HTTP 429"}
	// An order's event is published just after its record is stored, which
	// the last case waited for: the events are read once every one is in.
	var events string
	poll.True(5*time.Second, func() bool {
		events = strings.Join(p.rawEvents(t), "\n")
		for _, name := range names {
			if !strings.Contains(events, name) {
				return false
			}
		}
		return true
	})
	text := map[string]string{"orders": p.rawOrders(t), "events": events, "logs": p.logs.String()}
	for where, s := range text {
		for _, secret := range []string{"sekret", "KEY123", "KEY456", "api-key", hostOf(limited), hostOf(refusing), "solana-rpc", "base-relay"} {
			if strings.Contains(s, secret) {
				t.Errorf("the %s carry %q:\n%s", where, secret, s)
			}
		}
	}
	for _, name := range names {
		if !strings.Contains(text["events"], name) || !strings.Contains(text["logs"], name) {
			t.Errorf("the events or the logs do not say %q", name)
		}
	}
}

// hostOf returns the host and port of a URL.
func hostOf(rawURL string) string { return strings.SplitN(rawURL, "/", 4)[2] }
