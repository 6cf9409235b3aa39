package exits

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// forgingTokenNode answers for a buy of a token whose transfer logs, from
// the token contract, an event with the Uniswap V2 Swap signature naming
// the buyer, before the real pair's Swap. The token answers token0 and
// token1 as a pair would, and getReserves with whatever price its owner
// wants.
type forgingTokenNode struct {
	token, pair, weth, buyer common.Address
}

// word pads b to an ABI word.
func word(b []byte) []byte { return common.LeftPadBytes(b, 32) }

func (c *forgingTokenNode) CallContract(_ context.Context, m ethereum.CallMsg, _ *big.Int) ([]byte, error) {
	sel := string(m.Data[:4])
	is := func(name string) bool { return sel == string(pairABI.Methods[name].ID) }
	switch {
	case is("token0"):
		return word(c.token.Bytes()), nil
	case is("token1"):
		return word(c.weth.Bytes()), nil
	case sel == string(erc20ABI.Methods["decimals"].ID):
		return word([]byte{18}), nil
	case is("getReserves"):
		if *m.To == c.token { // the token's own "reserves": any price its owner likes
			return append(append(word(big.NewInt(1).Bytes()), word(big.NewInt(1_000_000).Bytes())...), word(nil)...), nil
		}
		return append(append(word(big.NewInt(1_000_000).Bytes()), word(big.NewInt(1).Bytes())...), word(nil)...), nil
	}
	return nil, nil
}

func (c *forgingTokenNode) swapLog(from common.Address) *types.Log {
	data := append(append(append(word(big.NewInt(0).Bytes()), word(big.NewInt(100).Bytes())...),
		word(big.NewInt(1000).Bytes())...), word(big.NewInt(0).Bytes())...)
	return &types.Log{Address: from, Topics: []common.Hash{swapTopic, common.BytesToHash(c.pair.Bytes()),
		common.BytesToHash(c.buyer.Bytes())}, Data: data}
}

func (c *forgingTokenNode) TransactionReceipt(context.Context, common.Hash) (*types.Receipt, error) {
	transfer := &types.Log{Address: c.token, Topics: []common.Hash{transferTopic, common.BytesToHash(c.pair.Bytes()),
		common.BytesToHash(c.buyer.Bytes())}, Data: word(big.NewInt(1000).Bytes())}
	// The pair's transfer to the buyer runs the token's code first: its
	// forged Swap log comes before the pair's own.
	return &types.Receipt{Status: types.ReceiptStatusSuccessful, BlockNumber: big.NewInt(5),
		Logs: []*types.Log{transfer, c.swapLog(c.token), c.swapLog(c.pair)}}, nil
}

func (c *forgingTokenNode) FilterLogs(context.Context, ethereum.FilterQuery) ([]types.Log, error) {
	return nil, nil
}

// TestFillTakesThePoolsSwap: the position's market is the pool that paid
// the buyer, not a token that logs a Swap-shaped event of its own as the
// pool sends it out: that token was taken for the pool, and answered every
// price the position's exits read.
func TestFillTakesThePoolsSwap(t *testing.T) {
	t.Parallel()
	c := &forgingTokenNode{token: common.HexToAddress("0x1111111111111111111111111111111111111111"),
		pair:  common.HexToAddress("0x2222222222222222222222222222222222222222"),
		weth:  common.HexToAddress("0x3333333333333333333333333333333333333333"),
		buyer: common.HexToAddress("0x4444444444444444444444444444444444444444")}
	chain := NewEVM("eth", c, c.weth, "ETH", nil, 0)
	f, err := chain.Fill(context.Background(), "0x01", c.buyer.Hex(), c.token.Hex(), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Pool != c.pair.Hex() {
		t.Fatalf("the position's market is %s (the token contract is %s), want the pair %s", f.Pool, c.token.Hex(), c.pair.Hex())
	}
}
