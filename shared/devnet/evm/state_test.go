package evm

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
)

func openChain(t *testing.T, name, dir string) *Chain {
	t.Helper()
	c, err := NewChain(ChainConfig{Name: name, Dir: dir})
	if err != nil {
		t.Fatalf("open %s in %s: %v", name, dir, err)
	}
	return c
}

func v3Slot0(t *testing.T, c *Chain, pool common.Address) *big.Int {
	t.Helper()
	p, err := uniswap.NewUniswapV3Pool(pool, c.Client())
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Slot0(&bind.CallOpts{Context: testCtx(t)})
	if err != nil {
		t.Fatalf("slot0 of %s: %v", pool, err)
	}
	return s.SqrtPriceX96
}

func reserves(t *testing.T, c *Chain, pair common.Address) [2]*big.Int {
	t.Helper()
	p, err := uniswap.NewUniswapV2Pair(pair, c.Client())
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.GetReserves(&bind.CallOpts{Context: testCtx(t)})
	if err != nil {
		t.Fatalf("reserves of %s: %v", pair, err)
	}
	return [2]*big.Int{r.Reserve0, r.Reserve1}
}

// TestReopenKeepsState closes a chain kept in a folder and opens it again:
// balances, created tokens and their V2 and V3 pools, an account's nonce,
// earlier receipts (a bundle's too) and the deployment are as they were,
// with nothing deployed a second time, and the chain goes on from its last
// block.
func TestReopenKeepsState(t *testing.T) {
	dir := t.TempDir()
	ctx := testCtx(t)
	c := openChain(t, "base", dir)
	key := fundedKey(t, c, 10)
	from := crypto.PubkeyToAddress(key.PublicKey)
	tok, err := c.CreateToken(ctx, TokenRequest{Name: "Kept", Symbol: "KEPT", BuyTaxBps: 300})
	if err != nil {
		t.Fatal(err)
	}
	tx := transfer(t, c.Client(), c.ChainID(), key, randomAddress(t), big.NewInt(1e15))
	if err := c.Client().SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	receipt, err := c.WaitMined(ctx, tx.Hash())
	if err != nil {
		t.Fatal(err)
	}
	balance, err := c.Balance(ctx, from, "")
	if err != nil {
		t.Fatal(err)
	}
	pool := reserves(t, c, tok.Pair)
	v3, err := c.CreateToken(ctx, TokenRequest{Name: "Kept V3", Symbol: "KV3", Venue: VenueV3, FeeTier: 500})
	if err != nil {
		t.Fatal(err)
	}
	slot0 := v3Slot0(t, c, v3.Pool)
	b := newBundler(t, c, 1)
	bundled := b.transferTx(t, c, DefaultRelayTipAddress, big.NewInt(1))
	bundle, err := c.SendBundle(ctx, []*types.Transaction{bundled}, nil)
	if err != nil {
		t.Fatal(err)
	}
	deployerNonce, err := c.Client().NonceAt(ctx, DeployerAddress, nil)
	if err != nil {
		t.Fatal(err)
	}
	deployment := c.Deployment()
	head, err := c.Client().BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}

	c = openChain(t, "base", dir)
	t.Cleanup(func() { _ = c.Close() })
	if got, err := c.Client().BlockNumber(ctx); err != nil || got != head {
		t.Fatalf("head after reopening: %d, %v; want %d", got, err, head)
	}
	if got, err := c.Balance(ctx, from, ""); err != nil || got.Cmp(balance) != 0 {
		t.Errorf("balance after reopening: %v, %v; want %v", got, err, balance)
	}
	if code, err := c.Client().CodeAt(ctx, tok.Address, nil); err != nil || len(code) == 0 {
		t.Errorf("token code after reopening: %d bytes, %v", len(code), err)
	}
	if got := reserves(t, c, tok.Pair); got[0].Cmp(pool[0]) != 0 || got[1].Cmp(pool[1]) != 0 {
		t.Errorf("pool reserves after reopening: %v, want %v", got, pool)
	}
	if n, err := c.Client().PendingNonceAt(ctx, from); err != nil || n != 1 {
		t.Errorf("nonce after reopening: %d, %v; want 1", n, err)
	}
	r, err := c.Client().TransactionReceipt(ctx, tx.Hash())
	if err != nil {
		t.Fatalf("receipt after reopening: %v", err)
	}
	if r.BlockHash != receipt.BlockHash || r.Status != types.ReceiptStatusSuccessful || r.GasUsed != receipt.GasUsed {
		t.Errorf("receipt after reopening: block %s status %d gas %d; want block %s status 1 gas %d",
			r.BlockHash, r.Status, r.GasUsed, receipt.BlockHash, receipt.GasUsed)
	}
	if got, _ := json.Marshal(c.Deployment()); string(got) != string(must(json.Marshal(deployment))) {
		t.Errorf("deployment after reopening: %s", got)
	}
	// Reopening checked the deployment and sent nothing.
	if n, err := c.Client().NonceAt(ctx, DeployerAddress, nil); err != nil || n != deployerNonce {
		t.Errorf("deployer nonce after reopening: %d, %v; want %d, no second deployment", n, err, deployerNonce)
	}
	if err := uniswap.CheckDeployment(ctx, c.Client(), c.Deployment().Uniswap()); err != nil {
		t.Errorf("official contracts after reopening: %v", err)
	}
	if got := v3Slot0(t, c, v3.Pool); got.Cmp(slot0) != 0 {
		t.Errorf("V3 pool price after reopening: %s, want %s", got, slot0)
	}
	if r, err := c.Client().TransactionReceipt(ctx, bundled.Hash()); err != nil || r.BlockHash != bundle.BlockHash {
		t.Errorf("bundled transaction after reopening: %v, %v; want it in %s", r, err, bundle.BlockHash)
	}

	// The chain goes on: the account's next transaction and the deployer's
	// next mint (its nonce follows the kept ones) both land.
	next := transfer(t, c.Client(), c.ChainID(), key, randomAddress(t), big.NewInt(1e15))
	if next.Nonce() != 1 {
		t.Fatalf("next nonce %d, want 1", next.Nonce())
	}
	if err := c.Client().SendTransaction(ctx, next); err != nil {
		t.Fatal(err)
	}
	if r, err := c.WaitMined(ctx, next.Hash()); err != nil || r.BlockNumber.Uint64() != head+1 {
		t.Fatalf("transaction after reopening: %v, %v; want block %d", r, err, head+1)
	}
	if err := c.FundToken(ctx, from, tok.Address.Hex(), big.NewInt(5)); err != nil {
		t.Fatalf("mint after reopening: %v", err)
	}
	if b, err := c.Balance(ctx, from, tok.Address.Hex()); err != nil || b.Int64() != 5 {
		t.Errorf("token balance after the mint: %v, %v", b, err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestStateDirRefused opens chains on folders that are not theirs: each is
// refused with ErrStateDir and an error naming the file, and the folder is
// left as it was.
func TestStateDirRefused(t *testing.T) {
	marker := func(m stateMarker) string {
		return string(must(json.Marshal(m)))
	}
	eth := func() stateMarker {
		c := &Chain{spec: must(specOf("eth"))}
		return stateMarker{Format: stateFormat, Chain: "eth", ChainID: 1, Genesis: c.genesis().ToBlock().Hash()}
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"older format, the project's own exchange", map[string]string{stateMarkerName: marker(stateMarker{Format: 1, Chain: "eth", ChainID: 1})},
			"format version 1"},
		{"newer format", map[string]string{stateMarkerName: marker(stateMarker{Format: stateFormat + 1, Chain: "eth", ChainID: 1})},
			fmt.Sprintf("format version %d", stateFormat+1)},
		{"other chain", map[string]string{stateMarkerName: func() string { m := eth(); m.Chain, m.ChainID = "bsc", 56; return marker(m) }()},
			"holds chain bsc"},
		{"other genesis", map[string]string{stateMarkerName: func() string { m := eth(); m.Genesis = common.Hash{1}; return marker(m) }()},
			"was written for genesis"},
		{"not a marker", map[string]string{stateMarkerName: "{"}, "does not parse"},
		{"foreign folder", map[string]string{"notes.txt": "mine"}, "is not empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			c, err := NewChain(ChainConfig{Name: "eth", Dir: dir})
			if err == nil {
				_ = c.Close()
				t.Fatal("opened")
			}
			if !errors.Is(err, ErrStateDir) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q: want ErrStateDir naming %s and saying %q", err, dir, tc.want)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != len(tc.files) {
				t.Errorf("the folder changed: %d entries", len(entries))
			}
		})
	}
}

// crashChildEnv tells the test binary it runs as the process that
// TestCrashedChainReopens kills.
const crashChildEnv = "TRADEAPI_EVM_CRASH_DIR"

// TestCrashedChainReopens kills a process while its chain takes one
// transaction after another, then reopens the chain from its folder: every
// transaction the process saw mined is there, and the chain goes on.
func TestCrashedChainReopens(t *testing.T) {
	if dir := os.Getenv(crashChildEnv); dir != "" {
		crashChild(dir)
		return
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashedChainReopens$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A process that stops printing is killed all the same.
	watchdog := time.AfterFunc(30*time.Second, func() { _ = cmd.Process.Kill() })
	defer watchdog.Stop()
	var mined []common.Hash
	lines := bufio.NewScanner(out)
	for len(mined) < 30 && lines.Scan() {
		if h, ok := strings.CutPrefix(lines.Text(), "mined "); ok {
			mined = append(mined, common.HexToHash(h))
		}
	}
	// SIGKILL: no Close, no deferred function, whatever write was under
	// way stops where it was.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if len(mined) < 30 {
		t.Fatalf("the process reported %d mined transactions before it ended", len(mined))
	}

	c := openChain(t, "eth", dir)
	t.Cleanup(func() { _ = c.Close() })
	ctx := testCtx(t)
	for i, h := range mined {
		r, err := c.Client().TransactionReceipt(ctx, h)
		if err != nil || r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("transaction %d (%s) after the crash: %v, %v", i, h, r, err)
		}
	}
	to := randomAddress(t)
	if err := c.Fund(ctx, to, big.NewInt(7)); err != nil {
		t.Fatalf("fund after the crash: %v", err)
	}
	if b, err := c.Balance(ctx, to, ""); err != nil || b.Int64() != 7 {
		t.Fatalf("balance after the crash: %v, %v", b, err)
	}
}

// crashChild sends the deployer's transfers one after another on a chain
// kept in dir, and prints each one once a client can see its receipt,
// until it is killed.
func crashChild(dir string) {
	fail := func(what string, err error) {
		fmt.Fprintln(os.Stderr, what+":", err)
		os.Exit(1)
	}
	c, err := NewChain(ChainConfig{Name: "eth", Dir: dir})
	if err != nil {
		fail("open chain", err)
	}
	ctx := context.Background()
	nonce, err := c.Client().PendingNonceAt(ctx, DeployerAddress)
	if err != nil {
		fail("nonce", err)
	}
	signer := types.LatestSignerForChainID(c.ChainID())
	to := common.HexToAddress("0x00000000000000000000000000000000000c4a54")
	for ; ; nonce++ {
		tx, err := types.SignNewTx(DeployerKey, signer, &types.DynamicFeeTx{ChainID: c.ChainID(), Nonce: nonce,
			GasTipCap: big.NewInt(params.GWei), GasFeeCap: big.NewInt(100 * params.GWei), Gas: 21_000, To: &to, Value: common.Big1})
		if err != nil {
			fail("sign", err)
		}
		if err := c.Client().SendTransaction(ctx, tx); err != nil {
			fail("send", err)
		}
		if _, err := c.WaitMined(ctx, tx.Hash()); err != nil {
			fail("wait", err)
		}
		fmt.Printf("mined %s\n", tx.Hash())
	}
}

// TestChainsOwnAddresses: a token made on each local chain has an address
// of its own, no other chain's token or contract: a buy with chain omitted
// finds it on its chain alone.
func TestChainsOwnAddresses(t *testing.T) {
	seen := map[common.Address]string{}
	note := func(a common.Address, what string) {
		if prev, ok := seen[a]; ok {
			t.Fatalf("%s at %s, where %s is", what, a, prev)
		}
		seen[a] = what
	}
	for _, name := range Names() {
		c := chainOf(t, name)
		d := c.Deployment()
		note(d.WrappedNative, name+" wrapped native")
		note(d.Router02, name+" Router02")
		for sym, a := range d.Stables {
			note(a, name+" "+sym)
		}
		tok, err := c.CreateToken(testCtx(t), TokenRequest{Name: "Own " + name, Symbol: "OWN"})
		if err != nil {
			t.Fatal(err)
		}
		note(tok.Address, name+" token")
	}
}

// TestFolderKeepsItsNonceBase: a chain folder whose marker predates the
// deployer's nonce base reopens with the nonces it was made with (0), its
// contracts where they were.
func TestFolderKeepsItsNonceBase(t *testing.T) {
	dir := t.TempDir()
	old := &Chain{spec: must(specOf("bsc"))}
	m := stateMarker{Format: stateFormat, Chain: "bsc", ChainID: 56, Genesis: old.genesis().ToBlock().Hash()}
	if err := os.WriteFile(filepath.Join(dir, stateMarkerName), must(json.Marshal(m)), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := NewChain(ChainConfig{Name: "bsc", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }()
	if got, want := c.Deployment().WrappedNative, crypto.CreateAddress(DeployerAddress, wrappedNonce); got != want {
		t.Fatalf("wrapped native at %s, want %s (nonce base 0)", got, want)
	}
	if nonceBase("bsc") == 0 {
		t.Fatal("bsc has no nonce base of its own")
	}
}
