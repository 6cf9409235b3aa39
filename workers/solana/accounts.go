package solana

import (
	"fmt"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/apierr"
)

// decodable is a program account type that decodes itself from account
// data: *pumpfun.Global, *launchlab.PlatformConfig, ...
type decodable[T any] interface {
	*T
	Decode(data []byte) error
}

// programAccount decodes a as a T. found is false when a is missing or not
// owned by owner; err is set when it is found and does not decode.
func programAccount[T any, P decodable[T]](a *rpc.Account, owner sol.PublicKey) (v *T, found bool, err error) {
	if a == nil || a.Owner != owner {
		return nil, false, nil
	}
	v = new(T)
	if err := P(v).Decode(data(a)); err != nil {
		return nil, true, err
	}
	return v, true, nil
}

// requiredAccount decodes an account the service cannot work without (a
// program's global configuration): missing or undecodable, it is an
// internal error naming what and where.
func requiredAccount[T any, P decodable[T]](a *rpc.Account, owner, addr sol.PublicKey, what string) (*T, error) {
	v, found, err := programAccount[T, P](a, owner)
	switch {
	case !found:
		return nil, apierr.Wrap(fmt.Errorf("%s %s is missing", what, addr), "internal error")
	case err != nil:
		return nil, apierr.Wrap(fmt.Errorf("%s %s: %w", what, addr, err), "internal error")
	}
	return v, nil
}

// optionalAccount decodes an account that may not exist (a fee
// configuration the program falls back from); undecodable, it is an
// internal error.
func optionalAccount[T any, P decodable[T]](a *rpc.Account, owner, addr sol.PublicKey, what string) (*T, error) {
	v, _, err := programAccount[T, P](a, owner)
	if err != nil {
		return nil, apierr.Wrap(fmt.Errorf("%s %s: %w", what, addr, err), "internal error")
	}
	return v, nil
}
