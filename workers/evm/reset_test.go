package evm

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/core/vm/program"

	"github.com/tradeapi/tradeapi/shared/evm/contracts"
	"github.com/tradeapi/tradeapi/shared/evm/uniswap"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// tetherGuard is the runtime code of a proxy in front of the ERC-20 at
// impl, which keeps the token's storage and passes every call on by
// DELEGATECALL, except an approve that would change a non-zero allowance
// to another non-zero one: that reverts, as Tether's USDT does on eth
// (require(!(value != 0 && allowed[msg.sender][spender] != 0))). The
// allowance is read where ERC20.sol keeps it, the mapping at slot 1.
func tetherGuard(impl common.Address) []byte {
	build := func(pass, ok uint64) *program.Program {
		p := program.New()
		// Not approve: passed on.
		p.Push(0).Op(vm.CALLDATALOAD).Push(0xe0).Op(vm.SHR).Push(approveSelector).Op(vm.EQ, vm.ISZERO).Push(pass).Op(vm.JUMPI)
		// An approval of zero: passed on.
		p.Push(0x24).Op(vm.CALLDATALOAD, vm.ISZERO).Push(pass).Op(vm.JUMPI)
		// allowance[caller][spender] = sload(keccak(spender, keccak(caller, 1))).
		p.Op(vm.CALLER).Push(0).Op(vm.MSTORE).Push(1).Push(0x20).Op(vm.MSTORE).Push(0x40).Push(0).Op(vm.KECCAK256)
		p.Push(0x20).Op(vm.MSTORE).Push(4).Op(vm.CALLDATALOAD).Push(0).Op(vm.MSTORE).Push(0x40).Push(0).Op(vm.KECCAK256, vm.SLOAD)
		// None yet: passed on; else refused.
		p.Op(vm.ISZERO).Push(pass).Op(vm.JUMPI).Push(0).Push(0).Op(vm.REVERT)
		p.Op(vm.JUMPDEST)
		p.Op(vm.CALLDATASIZE).Push(0).Push(0).Op(vm.CALLDATACOPY)
		p.Push(0).Push(0).Op(vm.CALLDATASIZE).Push(0).Push(impl).Op(vm.GAS, vm.DELEGATECALL)
		p.Op(vm.RETURNDATASIZE).Push(0).Push(0).Op(vm.RETURNDATACOPY)
		p.Push(ok).Op(vm.JUMPI).Op(vm.RETURNDATASIZE).Push(0).Op(vm.REVERT)
		p.Op(vm.JUMPDEST, vm.RETURNDATASIZE).Push(0).Op(vm.RETURN)
		return p
	}
	// Laid out once with one-byte placeholders to find the jump
	// destinations, then again with them.
	draft := build(0xff, 0xff).Bytes()
	var pass, ok uint64
	for i, jumpdests := 0, 0; i < len(draft); i++ {
		switch op := vm.OpCode(draft[i]); {
		case op == vm.JUMPDEST && jumpdests == 0:
			pass, jumpdests = uint64(i), 1
		case op == vm.JUMPDEST:
			ok = uint64(i)
		case op.IsPush():
			i += int(op - vm.PUSH0)
		}
	}
	return build(pass, ok).Bytes()
}

// tetherLike deploys on chain an 18-decimal token with Tether's approve
// guard (tetherGuard in front of a Stable, whose owner slot, 5, the
// proxy's constructor sets to the deployer so that it may mint), pools
// half of its supply against native coin in its V2 pair and gives the
// wallet w 1000 tokens.
func (e *env) tetherLike(t *testing.T, chain string, w common.Address) common.Address {
	t.Helper()
	c := e.dev.chain(t, chain)
	owner := newBindKey(t)
	e.fund(t, chain, owner.addr, "1000", nil)
	impl, tx, _, err := contracts.DeployStable(owner.opts(t, c), c.Client(), "Tether USD", "USDT", 18)
	waitTx(t, c, tx, err)
	init := program.New().Op(vm.CALLER).Push(5).Op(vm.SSTORE).ReturnViaCodeCopy(tetherGuard(impl)).Bytes()
	token, tx, _, err := bind.DeployContract(owner.opts(t, c), abi.ABI{}, init, c.Client())
	waitTx(t, c, tx, err)
	st, err := contracts.NewStable(token, c.Client())
	if err != nil {
		t.Fatal(err)
	}
	supply := units(t, "1000000000", 18)
	tx, err = st.Mint(owner.opts(t, c), owner.addr, supply)
	waitTx(t, c, tx, err)
	if _, err := uniswap.AddLiquidityETHV2(context.Background(), c.Client(), owner.opts(t, c), c.Deployment().Uniswap(), token,
		new(big.Int).Quo(supply, big.NewInt(2)), units(t, "10", 18), owner.addr); err != nil {
		t.Fatal(err)
	}
	owner.transfer(t, c, token, w, units(t, "1000", 18))
	return token
}

// TestApproveOverPartialAllowance: a wallet whose allowance for Router02
// is partial sells more than it allows. An ordinary token takes the
// approval of the whole range straight over it, one transaction; a token
// with Tether's guard refuses that, so the sale clears the allowance
// first (approve(router, 0)), then approves, then swaps, and all three
// land.
func TestApproveOverPartialAllowance(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	chain := wire.ChainBase
	c := e.dev.chain(t, chain)
	router := c.Deployment().Router02
	allowPartly := func(t *testing.T, token, w common.Address) *contracts.Stable {
		t.Helper()
		st, err := contracts.NewStable(token, c.Client())
		if err != nil {
			t.Fatal(err)
		}
		bk := &bindKey{key: e.keys.keys[w], addr: w}
		held := e.balance(t, chain, w, token.Hex())
		tx, err := st.Approve(bk.opts(t, c), router, new(big.Int).Div(held, big.NewInt(10)))
		waitTx(t, c, tx, err)
		return st
	}
	sell := func(t *testing.T, token, w common.Address, want ...*big.Int) {
		t.Helper()
		b, err := e.signer.Sign(ctx, e.job(chain, wire.Sell, token, "", legOf(w, "30")))
		if err != nil {
			t.Fatalf("the sale over a partial allowance: %v", err)
		}
		got := approvals(decode(t, b))
		if len(got) != len(want) {
			t.Fatalf("the sale approves %v, want %v", got, want)
		}
		for i := range want {
			if got[i].Cmp(want[i]) != 0 {
				t.Fatalf("the sale approves %v, want %v", got, want)
			}
		}
		for i, r := range e.broadcast(t, b) {
			if r.Status != types.ReceiptStatusSuccessful {
				t.Fatalf("transaction %d of the sale reverted on chain", i)
			}
		}
	}

	t.Run("ordinary", func(t *testing.T) {
		tok, w := e.holder(t, chain)
		allowPartly(t, tok.Address, w)
		sell(t, tok.Address, w, maxUint256)
	})
	t.Run("tether", func(t *testing.T) {
		w := e.wallet(t, chain, "5", nil)
		token := e.tetherLike(t, chain, w)
		st := allowPartly(t, token, w)
		// The guard holds: an approval straight over the allowance reverts.
		data := pack(erc20ABI, "approve", router, maxUint256)
		if _, err := c.Client().CallContract(ctx, ethereum.CallMsg{From: w, To: &token, Data: data}, nil); err == nil {
			t.Fatal("the token approves over a non-zero allowance: not Tether's guard")
		}
		sell(t, token, w, new(big.Int), maxUint256)
		if left, err := st.Allowance(nil, w, router); err != nil || left.Cmp(maxUint256) != 0 {
			t.Fatalf("the router's allowance after the sale: %v (%v), want the whole range", left, err)
		}
	})
}
