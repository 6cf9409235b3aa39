package broadcaster

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"

	"github.com/tradeapi/tradeapi/shared/anchor"
	devnet "github.com/tradeapi/tradeapi/shared/devnet/solana"
	"github.com/tradeapi/tradeapi/shared/endpoint"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/poll"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/wire"
	solworker "github.com/tradeapi/tradeapi/workers/solana"
)

// walletKeys is a KeySource over generated wallets.
type walletKeys map[string]sol.PrivateKey

func (k walletKeys) PrivateKey(_ context.Context, _ wire.Family, address string) ([]byte, error) {
	key, ok := k[address]
	if !ok {
		return nil, errors.New("no such wallet")
	}
	return key, nil
}

// relayScene is the local chain with its RPC at /solana and its bundle
// relay at /solana/bundles, as the devnet listener mounts them.
type relayScene struct {
	chain  *devnet.Chain
	client *rpc.Client
	relay  endpoint.Endpoint
	keys   walletKeys
	signer *solworker.Signer
}

func newRelayScene(t *testing.T) *relayScene {
	t.Helper()
	chain := devnet.New(devnet.Config{Seed: t.Name()})
	mux := http.NewServeMux()
	mux.Handle("/solana", chain.Handler())
	mux.Handle("/solana/bundles", chain.BundleHandler())
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		_ = chain.Close()
	})
	s := &relayScene{chain: chain, client: endpoint.New("solana rpc", srv.URL+"/solana").SolanaRPC(5 * time.Second),
		relay: endpoint.New("solana relay", srv.URL+"/solana/bundles"), keys: walletKeys{}}
	s.signer = solworker.NewSigner(s.client, s.keys, solworker.Config{TipAccounts: devnet.JitoTipAccounts[:2]}, nil)
	return s
}

func (s *relayScene) wallet(lamports uint64) string {
	w := sol.NewWallet()
	s.keys[w.PublicKey().String()] = w.PrivateKey
	s.chain.Airdrop(w.PublicKey(), lamports)
	return w.PublicKey().String()
}

// waitFinal polls Statuses until every signature is final.
func waitFinal(t *testing.T, chain *Solana, sigs []string) []Status {
	t.Helper()
	return poll.Value(t, 10*time.Second, "final statuses", func() ([]Status, bool) {
		sts, err := chain.Statuses(context.Background(), sigs)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range sts {
			if st.State == "" {
				return sts, false
			}
		}
		return sts, true
	})
}

// TestSolanaAntiMEV signs an anti_mev buy on a PumpSwap coin and sends it:
// the local chain sees it only as bundles, never through sendTransaction,
// and it lands.
func TestSolanaAntiMEV(t *testing.T) {
	t.Parallel()
	s := newRelayScene(t)
	ctx := context.Background()
	coin, err := s.chain.CreatePumpSwapCoin(sol.NewWallet().PublicKey(), "Private", "PRIV", sol.PublicKey{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	wallets := []string{s.wallet(2_000_000_000), s.wallet(2_000_000_000)}
	job := &wire.SwapJob{
		OrderID: "eu-private", AccountID: "acct", Family: wire.FamilySol, Chain: wire.ChainSolana, Token: coin.Mint.String(),
		Side: wire.Buy, QuoteAsset: "SOL", SlippageBps: 500, AntiMEV: true,
		Legs: []wire.Leg{{Wallet: wallets[0], Amount: "0.2"}, {Wallet: wallets[1], Amount: "0.1"}},
	}
	batch, err := s.signer.Sign(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	for _, tx := range batch.Txs {
		if !tx.Private {
			t.Fatalf("transaction of %s not private", tx.Wallet)
		}
	}
	chain := NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(s.relay, 5*time.Second))
	var sigs []string
	for _, tx := range batch.Txs {
		// The order has no processor_tip; the bundle still tips, or the
		// relay would refuse it.
		if err := chain.Send(ctx, tx); err != nil {
			t.Fatalf("send %s: %v", tx.Wallet, err)
		}
		sigs = append(sigs, tx.Signature)
	}
	for i, st := range waitFinal(t, chain, sigs) {
		if st.State != wire.StateConfirmed {
			t.Fatalf("transaction %d: %+v", i, st)
		}
	}
	if n := s.chain.RPCCalls("sendTransaction"); n != 0 {
		t.Fatalf("%d transactions went through sendTransaction", n)
	}
	if n := s.chain.RPCCalls("sendBundle"); n != 2 {
		t.Fatalf("%d bundles sent, want 2", n)
	}
	if s.chain.RPCCalls("getBundleStatuses") == 0 {
		t.Fatal("the statuses were not asked of the relay")
	}
	for _, w := range wallets {
		if got, _ := s.chain.TokenBalance(sol.MustPublicKeyFromBase58(w), coin.Mint); got == 0 {
			t.Fatalf("wallet %s holds no tokens", w)
		}
	}
	// Sending the same transaction again is not a second trade.
	if err := chain.Send(ctx, batch.Txs[0]); err != nil {
		t.Fatalf("resend: %v", err)
	}

	// Without a relay a private transaction is refused, not sent publicly.
	var ref *Refused
	if err := NewSolana(s.client, false).Send(ctx, batch.Txs[0]); !errors.As(err, &ref) {
		t.Fatalf("private send without a relay: %v", err)
	}
	if n := s.chain.RPCCalls("sendTransaction"); n != 0 {
		t.Fatalf("%d transactions went through sendTransaction", n)
	}
}

// TestSolanaFailedBundle checks that a bundle the relay could not land is
// reported failed, and that a transaction without a tip is refused.
func TestSolanaFailedBundle(t *testing.T) {
	t.Parallel()
	s := newRelayScene(t)
	ctx := context.Background()
	coin, err := s.chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Fails", "FAIL")
	if err != nil {
		t.Fatal(err)
	}
	w := s.wallet(1_000_000_000)
	job := &wire.SwapJob{
		OrderID: "eu-fail", AccountID: "acct", Family: wire.FamilySol, Chain: wire.ChainSolana, Token: coin.Mint.String(),
		Side: wire.Buy, QuoteAsset: "SOL", SlippageBps: 500, AntiMEV: true, ProcessorTip: "5000",
		Legs: []wire.Leg{{Wallet: w, Amount: "0.5"}},
	}
	batch, err := s.signer.Sign(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	// The wallet spends its SOL elsewhere before the bundle arrives.
	acc, _ := s.chain.GetAccount(sol.MustPublicKeyFromBase58(w))
	acc.Lamports = 100_000_000
	s.chain.SetAccount(sol.MustPublicKeyFromBase58(w), acc)
	chain := NewSolana(s.client, false).WithBundleRelay(NewBundleRelay(s.relay, 5*time.Second))
	if err := chain.Send(ctx, batch.Txs[0]); err != nil {
		t.Fatal(err)
	}
	if st := waitFinal(t, chain, []string{batch.Txs[0].Signature}); st[0].State != wire.StateFailed {
		t.Fatalf("status %+v", st[0])
	}

	// A private transaction without a tip is refused by the relay.
	s.chain.Airdrop(sol.MustPublicKeyFromBase58(w), 1_000_000_000)
	plain := *job
	plain.AntiMEV, plain.ProcessorTip, plain.OrderID = false, "0", "eu-plain"
	batch, err = s.signer.Sign(ctx, &plain)
	if err != nil {
		t.Fatal(err)
	}
	tx := batch.Txs[0]
	tx.Private = true
	var ref *Refused
	if err := chain.Send(ctx, tx); !errors.As(err, &ref) {
		t.Fatalf("untipped bundle: %v", err)
	}
}

// TestVenueErrorsNamed: a pump.fun buy whose price moved past its bound
// fails with the program's own error, named as the program's IDL names
// it: in a node's refusal (its simulation) and in a transaction that
// landed failed.
func TestVenueErrorsNamed(t *testing.T) {
	t.Parallel()
	s := newRelayScene(t)
	ctx := context.Background()
	coin, err := s.chain.CreatePumpCoin(sol.NewWallet().PublicKey(), "Named", "NAMED")
	if err != nil {
		t.Fatal(err)
	}
	job := func(id string, wallets ...string) *wire.SwapJob {
		j := &wire.SwapJob{OrderID: id, AccountID: "acct", Family: wire.FamilySol, Chain: wire.ChainSolana,
			Token: coin.Mint.String(), Side: wire.Buy, QuoteAsset: "SOL", SlippageBps: 0}
		for _, w := range wallets {
			j.Legs = append(j.Legs, wire.Leg{Wallet: w, Amount: "0.5"})
		}
		return j
	}
	late, skipped := s.wallet(2_000_000_000), s.wallet(2_000_000_000)
	stale, err := s.signer.Sign(ctx, job("eu-stale", late, skipped))
	if err != nil {
		t.Fatal(err)
	}
	// Another buy, larger than either, moves the price first: at
	// slippage 0 both stale buys now ask for more tokens than they get.
	moving := job("eu-mover", s.wallet(3_000_000_000))
	moving.Legs[0].Amount = "2"
	mover, err := s.signer.Sign(ctx, moving)
	if err != nil {
		t.Fatal(err)
	}
	preflight, skip := NewSolana(s.client, false), NewSolana(s.client, true)
	if err := preflight.Send(ctx, mover.Txs[0]); err != nil {
		t.Fatal(err)
	}
	waitFinal(t, preflight, []string{mover.Txs[0].Signature})
	var ref *Refused
	if err := preflight.Send(ctx, stale.Txs[0]); !errors.As(err, &ref) || !strings.Contains(ref.Reason, "(pump error 60") {
		t.Fatalf("refusal %v, want the pump program's error named", err)
	}
	if err := skip.Send(ctx, stale.Txs[1]); err != nil {
		t.Fatal(err)
	}
	st := waitFinal(t, skip, []string{stale.Txs[1].Signature})[0]
	if st.State != wire.StateFailed || !strings.Contains(st.Err, "failed: pump error 60") || !strings.Contains(st.Err, "(0x17") {
		t.Fatalf("landed failure %+v, want the pump program's error named with its code", st)
	}
}

// TestProcessedFailureNotFinal: a transaction failed in a block not yet
// confirmed, which a fork may drop, is not final; once confirmed failed,
// it is.
func TestProcessedFailureNotFinal(t *testing.T) {
	t.Parallel()
	var level atomic.Value
	level.Store("processed")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     any    `json:"id"`
			Method string `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		var result any
		if req.Method == "getSignatureStatuses" {
			result = map[string]any{"context": map[string]any{"slot": 9}, "value": []any{map[string]any{
				"slot": 9, "confirmations": 0, "err": map[string]any{"InstructionError": []any{2, map[string]any{"Custom": 6042}}},
				"confirmationStatus": level.Load()}}}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}))
	t.Cleanup(srv.Close)
	s := NewSolana(endpoint.New("solana rpc", srv.URL).SolanaRPC(time.Second), true)
	sig := sol.SignatureFromBytes(make([]byte, 64)).String()
	if st, err := s.Statuses(context.Background(), []string{sig}); err != nil || st[0].State != "" {
		t.Fatalf("processed failure: %+v %v, want not final", st, err)
	}
	level.Store("confirmed")
	if st, err := s.Statuses(context.Background(), []string{sig}); err != nil || st[0].State != wire.StateFailed ||
		st[0].Err != "instruction 2 failed: program error 6042 (0x179a)" || st[0].Slot != 9 {
		t.Fatalf("confirmed failure: %+v %v", st, err)
	}
}

// TestRefusalNamesTokenErrors: a node's refusal of a transaction that the
// token program failed (a close of an account still holding tokens) names
// the error, as a venue's own errors are named: the code alone (0xb) told
// a bot nothing.
func TestRefusalNamesTokenErrors(t *testing.T) {
	t.Parallel()
	rerr := &jsonrpc.RPCError{Message: "Transaction simulation failed: Error processing Instruction 4: custom program error: 0xb",
		Data: map[string]any{"logs": []any{
			"Program TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb invoke [1]",
			"Program log: Instruction: CloseAccount",
			"Program log: Error: Non-native account can only be closed if its balance is zero",
			"Program TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb failed: custom program error: 0xb",
		}}}
	if got := refusalReason(rerr); !strings.Contains(got, "(token-2022 error 11 NonNativeHasBalance: Non-native account can only be closed if its balance is zero)") {
		t.Fatalf("refusal %q does not name the token program's error", got)
	}
}

// TestErrorsOfSystemAndFramework: a failure the System program answers (a
// wallet short of the SOL an instruction moves) and one the Anchor
// framework answers for a venue program (an account missing) are named, in
// a node's refusal and in a relay's verdict of a bundle of several
// transactions, where the instruction index names no transaction: the
// program is the one every transaction has there. "program error 1 (0x1)"
// told a bot nothing.
func TestErrorsOfSystemAndFramework(t *testing.T) {
	t.Parallel()
	rerr := &jsonrpc.RPCError{Message: "Transaction simulation failed: Error processing Instruction 3: custom program error: 0xbbd",
		Data: map[string]any{"logs": []any{
			"Program " + launchlab.ProgramID.String() + " invoke [1]",
			"Program log: AnchorError caused by account: trade_config. Error Code: AccountNotEnoughKeys. Error Number: 3005.",
			"Program " + launchlab.ProgramID.String() + " failed: custom program error: 0xbbd",
		}}}
	if got := refusalReason(rerr); !strings.Contains(got, "(launchlab error 3005 AccountNotEnoughKeys: Not enough account keys given to the instruction)") {
		t.Fatalf("refusal %q does not name the framework's error", got)
	}

	payer := sol.NewWallet()
	txOf := func(programs ...sol.PublicKey) wire.SignedTx {
		var ixs []sol.Instruction
		for _, p := range programs {
			ixs = append(ixs, sol.NewInstruction(p, sol.AccountMetaSlice{sol.Meta(payer.PublicKey()).WRITE().SIGNER()}, []byte{2}))
		}
		tx, err := sol.NewTransaction(ixs, sol.Hash{1}, sol.TransactionPayer(payer.PublicKey()))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Sign(func(sol.PublicKey) *sol.PrivateKey { return &payer.PrivateKey }); err != nil {
			t.Fatal(err)
		}
		raw, err := tx.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return wire.SignedTx{Raw: raw}
	}
	cb := sol.ComputeBudget
	r := &bundleRecord{programs: bundlePrograms([]wire.SignedTx{
		txOf(cb, cb, sol.SystemProgramID, pumpfun.ProgramID),
		txOf(cb, cb, sol.SystemProgramID, sol.TokenProgramID, launchlab.ProgramID),
	})}
	failed := func(ix int, code uint32) any {
		return map[string]any{"InstructionError": []any{float64(ix), map[string]any{"Custom": float64(code)}}}
	}
	for _, tc := range []struct {
		err  any
		want string
	}{
		{failed(2, 1), "instruction 2 failed: system error 1 ResultWithNegativeLamports: account does not have enough SOL to perform the operation (0x1)"},
		// The transactions' programs differ at 3: the code alone.
		{failed(3, 1), "instruction 3 failed: program error 1 (0x1)"},
		// Only the second has a fifth instruction.
		{failed(4, 3005), "instruction 4 failed: launchlab error 3005 AccountNotEnoughKeys: Not enough account keys given to the instruction (0xbbd)"},
	} {
		if got := anchor.TxErrorTextNamed(tc.err, r.programError); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
