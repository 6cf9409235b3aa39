package solana

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"
)

// newRelayChain serves the chain's RPC at / and its bundle relay at /bundles.
func newRelayChain(t *testing.T) (*Chain, *rpc.Client, jsonrpc.RPCClient) {
	t.Helper()
	c := New(Config{SlotDuration: 50 * time.Millisecond})
	mux := http.NewServeMux()
	mux.Handle("/", c.Handler())
	mux.Handle("/bundles", c.BundleHandler())
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		if err := c.Close(); err != nil {
			t.Errorf("close chain: %v", err)
		}
	})
	return c, rpc.New(srv.URL), jsonrpc.NewClient(srv.URL + "/bundles")
}

func b64(t *testing.T, tx *sol.Transaction) string {
	t.Helper()
	raw, err := tx.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(raw)
}

type bundleStatus struct {
	BundleID           string   `json:"bundle_id"`
	Transactions       []string `json:"transactions"`
	Slot               uint64   `json:"slot"`
	ConfirmationStatus string   `json:"confirmation_status"`
}

type inflightStatus struct {
	BundleID string  `json:"bundle_id"`
	Status   string  `json:"status"`
	Slot     *uint64 `json:"landed_slot"`
}

func bundleStatuses(t *testing.T, relay jsonrpc.RPCClient, id string) (*bundleStatus, inflightStatus) {
	t.Helper()
	ctx := context.Background()
	var landed struct {
		Value []*bundleStatus `json:"value"`
	}
	if err := relay.CallForInto(ctx, &landed, "getBundleStatuses", []any{[]string{id}}); err != nil {
		t.Fatal(err)
	}
	var inflight struct {
		Value []inflightStatus `json:"value"`
	}
	if err := relay.CallForInto(ctx, &inflight, "getInflightBundleStatuses", []any{[]string{id}}); err != nil {
		t.Fatal(err)
	}
	if len(landed.Value) != 1 || len(inflight.Value) != 1 {
		t.Fatalf("statuses %+v %+v", landed, inflight)
	}
	return landed.Value[0], inflight.Value[0]
}

func TestBundleRelay(t *testing.T) {
	c, cl, relay := newRelayChain(t)
	ctx := context.Background()
	tip := JitoTipAccounts[3]
	a := newWallet(t, c, sol1)
	b := newWallet(t, c, sol1)
	dest := newWallet(t, c, 0).PublicKey()
	bh := latest(t, cl)
	tx1 := signTx(t, bh, a, []sol.Instruction{transferIx(a.PublicKey(), dest, 1_000_000)})
	tx2 := signTx(t, bh, b, []sol.Instruction{transferIx(b.PublicKey(), dest, 2_000_000), transferIx(b.PublicKey(), tip, 1000)})

	var id string
	if err := relay.CallForInto(ctx, &id, "sendBundle", []any{[]string{b64(t, tx1), b64(t, tx2)}, map[string]string{"encoding": "base64"}}); err != nil {
		t.Fatal(err)
	}
	if len(id) != 64 {
		t.Fatalf("bundle id %q", id)
	}
	if got := c.Balance(dest); got != 3_000_000 {
		t.Fatalf("destination holds %d lamports", got)
	}
	landed, inflight := bundleStatuses(t, relay, id)
	if landed == nil || len(landed.Transactions) != 2 || landed.Transactions[0] != tx1.Signatures[0].String() ||
		inflight.Status != "Landed" || inflight.Slot == nil || *inflight.Slot != landed.Slot {
		t.Fatalf("statuses %+v %+v", landed, inflight)
	}
	st, err := cl.GetSignatureStatuses(ctx, false, tx1.Signatures[0], tx2.Signatures[0])
	if err != nil || st.Value[0] == nil || st.Value[1] == nil || st.Value[0].Slot != st.Value[1].Slot {
		t.Fatalf("signature statuses %+v %v", st, err)
	}
	// The same bundle again is the same landed bundle, not a second one.
	var again string
	if err := relay.CallForInto(ctx, &again, "sendBundle", []any{[]string{b64(t, tx1), b64(t, tx2)}, map[string]string{"encoding": "base64"}}); err != nil || again != id {
		t.Fatalf("resend: %q %v", again, err)
	}
	if got := c.Balance(dest); got != 3_000_000 {
		t.Fatalf("a resent bundle moved money: %d", got)
	}
	if c.RPCCalls("sendBundle") != 2 || c.RPCCalls("sendTransaction") != 0 {
		t.Fatalf("calls: %d sendBundle, %d sendTransaction", c.RPCCalls("sendBundle"), c.RPCCalls("sendTransaction"))
	}

	// All or nothing: the second transaction cannot pay, so the first does
	// not land either.
	c.AdvanceSlot()
	bh = latest(t, cl)
	ok := signTx(t, bh, a, []sol.Instruction{transferIx(a.PublicKey(), dest, 5_000_000)})
	broke := signTx(t, bh, b, []sol.Instruction{transferIx(b.PublicKey(), dest, 50*sol1), transferIx(b.PublicKey(), tip, 1000)})
	var failedID string
	if err := relay.CallForInto(ctx, &failedID, "sendBundle", []any{[]string{b64(t, ok), b64(t, broke)}, map[string]string{"encoding": "base64"}}); err != nil {
		t.Fatal(err)
	}
	landed, inflight = bundleStatuses(t, relay, failedID)
	if landed != nil || inflight.Status != "Failed" {
		t.Fatalf("failed bundle statuses %+v %+v", landed, inflight)
	}
	if got := c.Balance(dest); got != 3_000_000 {
		t.Fatalf("a failed bundle moved money: %d", got)
	}
	if st, _ := cl.GetSignatureStatuses(ctx, false, ok.Signatures[0]); st.Value[0] != nil {
		t.Fatal("a transaction of a failed bundle landed")
	}
	if _, inflight := bundleStatuses(t, relay, strings.Repeat("ab", 32)); inflight.Status != "Invalid" {
		t.Fatalf("unknown bundle %+v", inflight)
	}

	// Refused at once: no tip, a tip below the minimum, too many
	// transactions, the same transaction twice.
	c.AdvanceSlot()
	bh = latest(t, cl)
	untipped := signTx(t, bh, a, []sol.Instruction{transferIx(a.PublicKey(), dest, 1)})
	small := signTx(t, bh, a, []sol.Instruction{transferIx(a.PublicKey(), tip, 999)})
	var six []string
	for i := range 6 {
		six = append(six, b64(t, signTx(t, bh, a, []sol.Instruction{transferIx(a.PublicKey(), tip, uint64(1000+i))})))
	}
	for name, txs := range map[string][]string{
		"no tip":    {b64(t, untipped)},
		"small tip": {b64(t, small)},
		"six":       six,
		"twice":     {six[0], six[0]},
		"empty":     {},
	} {
		var out string
		err := relay.CallForInto(ctx, &out, "sendBundle", []any{txs, map[string]string{"encoding": "base64"}})
		var re *jsonrpc.RPCError
		if !errors.As(err, &re) || re.Code != rpcInvalidParams {
			t.Errorf("%s: %v", name, err)
		}
	}
	var tips []string
	if err := relay.CallForInto(ctx, &tips, "getTipAccounts", nil); err != nil || len(tips) != len(JitoTipAccounts) {
		t.Fatalf("tip accounts %v %v", tips, err)
	}
}
