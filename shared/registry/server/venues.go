package server

// The venue routes: what the venue watchers found (GET /admin/v1/venues)
// and a resume by hand (POST /admin/v1/venues/{venue}/resume?chain=), which
// runs the venue's checks again and lifts its pause only when they pass. And,
// with the local chains, POST /admin/v1/devnet/upgrade, which redeploys a
// venue program on the local Solana chain so that both kinds of upgrade
// can be tried end to end.

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"
	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/venues"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// VenueAdmin is the venues' side of the admin API; *venues.Admin
// implements it.
type VenueAdmin interface {
	// List returns every venue state recorded.
	List(ctx context.Context) ([]venues.State, error)
	// Resume runs a venue's checks on chain (empty: the only chain the
	// venue is checked on) and lifts its pause when they pass;
	// VENUE_STILL_FAILING when they do not.
	Resume(ctx context.Context, chain, venue string) (venues.State, error)
}

// venueView is a venue as the admin API shows it.
type venueView struct {
	Venue     string     `json:"venue"`
	Chain     string     `json:"chain"`
	State     string     `json:"state"`
	Reason    string     `json:"reason"`
	CheckedAt *time.Time `json:"checked_at"`
}

func viewOf(st venues.State) venueView {
	v := venueView{Venue: st.Venue, Chain: st.Chain, State: st.State, Reason: st.Reason}
	if !st.CheckedAt.IsZero() {
		t := st.CheckedAt.UTC()
		v.CheckedAt = &t
	}
	return v
}

// handleVenues answers GET /admin/v1/venues: {venues: [{venue, chain,
// state, reason, checked_at}]}, empty where no venue is watched.
func (r *Registry) handleVenues(c *gin.Context) {
	out := []venueView{}
	if r.cfg.Venues != nil {
		sts, err := r.cfg.Venues.List(c.Request.Context())
		if err != nil {
			envelope.Fail(c, err)
			return
		}
		for _, st := range sts {
			out = append(out, viewOf(st))
		}
	}
	envelope.OK(c, http.StatusOK, gin.H{"venues": out})
}

// handleResumeVenue answers POST /admin/v1/venues/{venue}/resume: 200 and
// the venue once its checks pass, 409 VENUE_STILL_FAILING with the reason
// when they do not. The query's chain names the chain of a venue checked on
// several (uniswap_v2 and uniswap_v3 on every EVM chain served); a Solana
// venue needs none.
func (r *Registry) handleResumeVenue(c *gin.Context) {
	venue, chain := c.Param("venue"), c.Query("chain")
	if r.cfg.Venues == nil {
		envelope.Fail(c, apierr.Newf(apierr.NotFound, "venue", "no venue is watched by this service"))
		return
	}
	st, err := r.cfg.Venues.Resume(c.Request.Context(), chain, venue)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	r.log.Info("venue resumed by hand", "venue", venue, "chain", st.Chain)
	envelope.OK(c, http.StatusOK, viewOf(st))
}

// ProgramUpgradeRequest is the body of POST /admin/v1/devnet/upgrade.
type ProgramUpgradeRequest struct {
	Chain    string `json:"chain"`
	Program  string `json:"program"`
	Breaking bool   `json:"breaking"`
	Revert   bool   `json:"revert"`
}

// ProgramUpgrade is the answer of POST /admin/v1/devnet/upgrade.
type ProgramUpgrade struct {
	Chain           string `json:"chain"`
	Program         string `json:"program"`
	ProgramID       string `json:"program_id"`
	ProgramData     string `json:"program_data"`
	DeploySlot      uint64 `json:"deploy_slot"`
	Revision        uint32 `json:"revision"`
	Breaking        bool   `json:"breaking"`
	RequiredAccount string `json:"required_account,omitempty"`
}

// upgradablePrograms are the programs the local chain redeploys.
var upgradablePrograms = venues.SolanaVenues

// handleDevnetUpgrade answers POST /admin/v1/devnet/upgrade {chain:
// "solana", program, breaking, revert}: the program's new deploy slot and
// what the new build requires.
func (r *Registry) handleDevnetUpgrade(c *gin.Context) {
	req, err := readUpgrade(c)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	// The local Solana chain redeploys its programs itself
	// (devnet_upgradeProgram), at the RPC URL its Devnet names: the devnet
	// client needs no method of its own for a route only tests and demos
	// use.
	up, err := upgradeProgram(context.WithoutCancel(c.Request.Context()), r.devnet.Chains()[wire.ChainSolana].RPCURL, req)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	r.log.Info("local program redeployed", "program", up.Program, "deploy_slot", up.DeploySlot, "breaking", up.Breaking)
	envelope.OK(c, http.StatusOK, up)
}

// readUpgrade reads and checks an upgrade request, naming the first field
// that is wrong.
func readUpgrade(c *gin.Context) (ProgramUpgradeRequest, error) {
	var req ProgramUpgradeRequest
	o, err := readObject(c)
	if err != nil {
		return req, err
	}
	if req.Chain, err = o.str("chain", true); err != nil {
		return req, err
	}
	if req.Chain, err = chainField(req.Chain); err != nil {
		return req, err
	}
	if req.Chain != wire.ChainSolana {
		return req, apierr.Invalid("chain", "only the local solana chain redeploys programs")
	}
	if req.Program, err = o.str("program", true); err != nil {
		return req, err
	}
	if !slices.Contains(upgradablePrograms, req.Program) {
		return req, apierr.Invalid("program", "program must be one of %s", strings.Join(upgradablePrograms, ", "))
	}
	if req.Breaking, err = o.boolean("breaking", false); err != nil {
		return req, err
	}
	if req.Revert, err = o.boolean("revert", false); err != nil {
		return req, err
	}
	if req.Breaking && req.Revert {
		return req, apierr.Invalid("revert", "revert restores the original program; it cannot be breaking as well")
	}
	return req, nil
}

// upgradeProgram asks the local Solana chain at url to redeploy a program
// (devnet_upgradeProgram).
func upgradeProgram(ctx context.Context, url string, req ProgramUpgradeRequest) (ProgramUpgrade, error) {
	if url == "" {
		return ProgramUpgrade{}, apierr.Invalid("chain", "chain solana has no local development chain configured")
	}
	var out struct {
		Program         string `json:"program"`
		ProgramID       string `json:"programId"`
		ProgramData     string `json:"programData"`
		DeploySlot      uint64 `json:"deploySlot"`
		Revision        uint32 `json:"revision"`
		Breaking        bool   `json:"breaking"`
		RequiredAccount string `json:"requiredAccount"`
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	err := rpc.New(url).RPCCallForInto(ctx, &out, "devnet_upgradeProgram",
		[]any{map[string]any{"program": req.Program, "breaking": req.Breaking, "revert": req.Revert}})
	var re *jsonrpc.RPCError
	switch {
	case errors.As(err, &re):
		return ProgramUpgrade{}, &apierr.Error{Code: apierr.InvalidRequest, Details: "program", Err: err,
			Message: "the local solana chain refused the upgrade: " + re.Message}
	case err != nil:
		return ProgramUpgrade{}, &apierr.Error{Code: apierr.ChainUnavailable, Details: wire.ChainSolana, Err: err,
			Message: "the local solana chain did not answer devnet_upgradeProgram"}
	}
	up := ProgramUpgrade{Chain: wire.ChainSolana, Program: out.Program, ProgramID: out.ProgramID, ProgramData: out.ProgramData,
		DeploySlot: out.DeploySlot, Revision: out.Revision, Breaking: out.Breaking}
	if out.Breaking {
		up.RequiredAccount = out.RequiredAccount
	}
	return up, nil
}
