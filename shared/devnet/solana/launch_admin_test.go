package solana

import (
	"testing"

	sol "github.com/gagliardetto/solana-go"
)

func TestCreateLaunchCoins(t *testing.T) {
	c, _ := newTestChain(t)
	creator := sol.NewWallet().PrivateKey
	c.Airdrop(creator.PublicKey(), 10_000_000_000)
	bonk, err := c.CreateLetsBonkCoin(creator, "Bonk Coin", "BC")
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := bonkState(t, c, bonk.Mint); p.Creator != creator.PublicKey() {
		t.Fatalf("letsbonk pool creator %s", p.Creator)
	}
	if _, ok := c.GetAccount(bonk.Pool); !ok {
		t.Fatal("letsbonk pool missing")
	}
	bags, err := c.CreateBagsCoin(creator, "Bags Coin", "BG")
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := bagsState(t, c, bags.Mint); p.Creator != creator.PublicKey() {
		t.Fatalf("bags pool creator %s", p.Creator)
	}
	if _, ok := c.GetAccount(bags.Pool); !ok {
		t.Fatal("bags pool missing")
	}
}
