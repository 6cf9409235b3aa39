package registry

import (
	"fmt"
	"testing"

	"github.com/gagliardetto/solana-go"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// benchView is a loaded view of n accounts with one key and ten wallets each.
func benchView(b *testing.B, n int) (*View, []string, []string) {
	v := NewView(nil, nil)
	st := &viewState{accounts: map[string]*Account{}, keys: map[[32]byte]KeyRef{}}
	var tokens, ids []string
	for i := range n {
		id := fmt.Sprintf("acc_%d", i)
		tok := NewAPIKey(wire.FamilySol)
		st.keys[HashAPIKey(tok)] = KeyRef{AccountID: id, Family: wire.FamilySol, KeyID: "k"}
		d := &AccountDoc{ID: id, Name: id}
		for j := range 10 {
			k, _ := solana.NewRandomPrivateKey()
			d.Wallets = append(d.Wallets, Wallet{Address: k.PublicKey().String(), Label: fmt.Sprintf("W%d", j+1), Family: wire.FamilySol, SpotActive: true})
		}
		st.accounts[id] = newAccount(d)
		tokens, ids = append(tokens, tok), append(ids, id)
	}
	v.snap.Store(st)
	return v, tokens, ids
}

func BenchmarkAuthenticate(b *testing.B) {
	v, tokens, _ := benchView(b, 1000)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, ok := v.Authenticate(tokens[i%len(tokens)]); !ok {
			b.Fatal("not found")
		}
		i++
	}
}

func BenchmarkWalletListing(b *testing.B) {
	v, _, ids := benchView(b, 1000)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		a, _ := v.Account(ids[i%len(ids)])
		if len(a.WalletListing(wire.FamilySol)) == 0 {
			b.Fatal("empty")
		}
		i++
	}
}
