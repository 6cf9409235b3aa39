package solana

import (
	"context"
	"testing"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/dbc"
)

// TestGetProgramAccounts finds a bags pool by its base mint as Meteora's
// SDK does, with the data cut by dataSlice, and refuses what a validator
// refuses.
func TestGetProgramAccounts(t *testing.T) {
	c, _ := newTestChain(t)
	url, err := c.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := rpc.New(url)
	creator := sol.NewWallet().PrivateKey
	c.Airdrop(creator.PublicKey(), 10_000_000_000)
	var coins []LaunchCoin
	for range 2 {
		coin, err := c.CreateBagsCoin(creator, "Bags Coin", "BG")
		if err != nil {
			t.Fatal(err)
		}
		coins = append(coins, coin)
	}
	ctx := context.Background()
	eight := uint64(8)
	zero := uint64(0)
	res, err := cl.GetProgramAccountsWithOpts(ctx, dbc.ProgramID, &rpc.GetProgramAccountsOpts{
		Encoding:  sol.EncodingBase64,
		DataSlice: &rpc.DataSlice{Offset: &zero, Length: &eight},
		Filters: []rpc.RPCFilter{{DataSize: dbc.VirtualPoolSize},
			{Memcmp: &rpc.RPCFilterMemcmp{Offset: dbc.VirtualPoolBaseMintOffset, Bytes: coins[1].Mint[:]}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Pubkey != coins[1].Pool || len(res[0].Account.Data.GetBinary()) != 8 {
		t.Fatalf("search by the second coin's mint: %+v", res)
	}
	all, err := cl.GetProgramAccountsWithOpts(ctx, dbc.ProgramID, &rpc.GetProgramAccountsOpts{
		Encoding: sol.EncodingBase64, Filters: []rpc.RPCFilter{{DataSize: dbc.VirtualPoolSize}}})
	if err != nil || len(all) != 2 {
		t.Fatalf("every pool: %d, %v", len(all), err)
	}
	huge := ^uint64(0)
	if _, err := cl.GetProgramAccountsWithOpts(ctx, dbc.ProgramID, &rpc.GetProgramAccountsOpts{
		Encoding: sol.EncodingBase64, DataSlice: &rpc.DataSlice{Offset: &eight, Length: &huge}}); err != nil {
		t.Fatalf("a slice past the end: %v", err)
	}
	five := make([]rpc.RPCFilter, 5)
	for i := range five {
		five[i] = rpc.RPCFilter{DataSize: 1}
	}
	if _, err := cl.GetProgramAccountsWithOpts(ctx, dbc.ProgramID, &rpc.GetProgramAccountsOpts{Encoding: sol.EncodingBase64, Filters: five}); err == nil {
		t.Fatal("five filters were taken")
	}
}
