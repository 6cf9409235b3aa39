package venues

import (
	"context"
	"encoding/hex"
	"fmt"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/tradeapi/tradeapi/shared/anchor"
	"github.com/tradeapi/tradeapi/shared/dbc"
	"github.com/tradeapi/tradeapi/shared/launchlab"
	"github.com/tradeapi/tradeapi/shared/pumpfun"
	"github.com/tradeapi/tradeapi/shared/pumpswap"
)

// layoutState holds the configuration accounts a check decoded, for the
// simulations built on them.
type layoutState struct {
	pumpGlobal  pumpfun.Global
	ammConfig   pumpswap.GlobalConfig
	bonkGlobal  launchlab.GlobalConfig
	bonkConfig  launchlab.PlatformConfig
	bagsConfig  dbc.PoolConfig
	haveBagsCfg bool
}

// layout is one account the service decodes: where it is, whose it is, its
// Anchor discriminator, the fewest bytes the service reads of it (older
// live layouts are shorter than the IDL's and are read zero-padded; what
// the service reads must be there), and its decoder.
type layout struct {
	name   string
	addr   sol.PublicKey
	owner  sol.PublicKey
	disc   anchor.Discriminator
	min    int
	decode func(data []byte, st *layoutState) error
}

// pumpGlobalMin is the pump.fun Global through buyback_basis_points, the
// last field the signer reads; the live account has been 1045 bytes and
// longer.
const pumpGlobalMin = 1045

// ammGlobalConfigMin is the oldest live PumpSwap GlobalConfig (907 bytes):
// the fields added after it read as zero and mean "off".
const ammGlobalConfigMin = 907

// bonkPlatformMin is the letsbonk PlatformConfig through creator_fee_rate
// (at 720), which the launch's fees depend on.
const bonkPlatformMin = 728

// layoutsOf lists the accounts venue's orders decode.
func (s *Solana) layoutsOf(venue string) []layout {
	switch venue {
	case PumpFun:
		return []layout{
			{"Global", pumpfun.GlobalPDA, pumpfun.ProgramID, pumpfun.GlobalDiscriminator, pumpGlobalMin,
				func(b []byte, st *layoutState) error { return st.pumpGlobal.Decode(b) }},
			{"FeeConfig", pumpfun.FeeConfigPDA, pumpfun.FeeProgramID, pumpfun.FeeConfigDiscriminator, pumpfun.FeeConfigMinSize,
				func(b []byte, _ *layoutState) error { var f pumpfun.FeeConfig; return f.Decode(b) }},
		}
	case PumpSwap:
		return []layout{
			{"GlobalConfig", pumpswap.GlobalConfigPDA, pumpswap.ProgramID, pumpswap.GlobalConfigDiscriminator, ammGlobalConfigMin,
				func(b []byte, st *layoutState) error { return st.ammConfig.Decode(b) }},
		}
	case LaunchLab:
		return []layout{
			{"GlobalConfig", launchlab.SOLConstantGlobalConfig, launchlab.ProgramID, launchlab.GlobalConfigDiscriminator, launchlab.GlobalConfigSize,
				func(b []byte, st *layoutState) error { return st.bonkGlobal.Decode(b) }},
			{"PlatformConfig", launchlab.LetsBonkPlatformConfig, launchlab.ProgramID, launchlab.PlatformConfigDiscriminator, bonkPlatformMin,
				func(b []byte, st *layoutState) error { return st.bonkConfig.Decode(b) }},
		}
	case DBC:
		if s.cfg.BagsPoolConfig.IsZero() {
			return nil
		}
		return []layout{
			{"PoolConfig", s.cfg.BagsPoolConfig, dbc.ProgramID, dbc.PoolConfigDiscriminator, dbc.PoolConfigSize,
				func(b []byte, st *layoutState) error { st.haveBagsCfg = true; return st.bagsConfig.Decode(b) }},
		}
	}
	return nil
}

// readLayouts reads and decodes the accounts of venue. problem is what
// the service would no longer read correctly ("" when nothing); err is a
// read that failed.
func (s *Solana) readLayouts(ctx context.Context, venue string) (st *layoutState, problem string, err error) {
	ls := s.layoutsOf(venue)
	st = &layoutState{}
	if len(ls) == 0 {
		return st, "", nil
	}
	keys := make([]sol.PublicKey, len(ls))
	for i, l := range ls {
		keys[i] = l.addr
	}
	res, err := s.rpc.GetMultipleAccountsWithOpts(ctx, keys, &rpc.GetMultipleAccountsOpts{Encoding: sol.EncodingBase64, Commitment: rpc.CommitmentConfirmed})
	if err != nil {
		return nil, "", fmt.Errorf("read %s accounts: %w", venue, err)
	}
	if len(res.Value) != len(keys) {
		return nil, "", fmt.Errorf("read %s accounts: %d accounts for %d keys", venue, len(res.Value), len(keys))
	}
	for i, l := range ls {
		if p := l.check(res.Value[i], st); p != "" {
			return st, p, nil
		}
	}
	return st, "", nil
}

// check returns what is wrong with a as the account of l, or "".
func (l layout) check(a *rpc.Account, st *layoutState) string {
	where := l.name + " " + l.addr.String()
	switch {
	case a == nil:
		return where + " is missing"
	case a.Owner != l.owner:
		return fmt.Sprintf("%s is owned by %s, not %s", where, a.Owner, l.owner)
	}
	b := a.Data.GetBinary()
	switch {
	case len(b) < 8:
		return fmt.Sprintf("%s holds %d bytes, no discriminator", where, len(b))
	case anchor.Discriminator(b[:8]) != l.disc:
		return fmt.Sprintf("%s changed its discriminator to %s (the service reads %s)", where, hex.EncodeToString(b[:8]), hex.EncodeToString(l.disc[:]))
	case len(b) < l.min:
		return fmt.Sprintf("%s shrank to %d bytes (the service reads %d)", where, len(b), l.min)
	}
	if err := l.decode(b, st); err != nil {
		return fmt.Sprintf("%s no longer decodes: %v", where, err)
	}
	return ""
}
