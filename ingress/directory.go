package ingress

import (
	"github.com/tradeapi/tradeapi/shared/budget"
	"github.com/tradeapi/tradeapi/shared/registry"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// emptyListing answers the wallet listing of an account the view does not
// know (yet).
var emptyListing = []byte(`{"success":true,"data":{"wallets":[]}}`)

// RegistryDirectory serves the Directory from the registry's in-memory view.
func RegistryDirectory(v *registry.View) Directory { return viewDirectory{v} }

type viewDirectory struct{ v *registry.View }

func (d viewDirectory) Authenticate(token string) (string, wire.Family, bool) {
	ref, ok := d.v.Authenticate(token)
	if !ok {
		return "", "", false
	}
	return ref.AccountID, ref.Family, true
}

func (d viewDirectory) Listing(account string, f wire.Family) []byte {
	if a, ok := d.v.Account(account); ok {
		return a.WalletListing(f)
	}
	return emptyListing
}

func (d viewDirectory) SpotWallets(account string, f wire.Family) []string {
	a, ok := d.v.Account(account)
	if !ok {
		return nil
	}
	ws := a.ActiveWallets(f)
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Address
	}
	return out
}

func (d viewDirectory) Wallet(account string, f wire.Family, address string) (string, bool) {
	a, ok := d.v.Account(account)
	if !ok {
		return "", false
	}
	w, ok := a.Wallet(f, address)
	return w.Address, ok
}

func (d viewDirectory) Limits(account string, f wire.Family) budget.Limits {
	l := registry.DefaultLimits
	if a, ok := d.v.Account(account); ok {
		l = a.Limits(f)
	}
	return budget.Limits{Minute: l.Minute, Hour: l.Hour, Week: l.Week}
}

func (d viewDirectory) Strategy(account string) []wire.AutoOrder {
	if a, ok := d.v.Account(account); ok {
		return a.Strategy()
	}
	return nil
}

func (d viewDirectory) FeeCaps(account string, f wire.Family) registry.FeeCaps {
	if a, ok := d.v.Account(account); ok {
		return a.FeeCaps(f)
	}
	return registry.DefaultFeeCaps(f)
}
