package ingress

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/orders"
	"github.com/tradeapi/tradeapi/shared/wire"
)

// orderView is the public view of an order.
type orderView struct {
	OrderID string    `json:"order_id"`
	Kind    string    `json:"kind"`
	State   string    `json:"state"`
	Chain   string    `json:"chain,omitempty"`
	Side    wire.Side `json:"side,omitempty"`
	Address string    `json:"address,omitempty"`
	// Mint is the token traded when Address named its pool.
	Mint       string           `json:"mint,omitempty"`
	Skipped    bool             `json:"skipped"`
	Signatures []wire.SigState  `json:"signatures"`
	Error      *apierr.Body     `json:"error,omitempty"`
	AutoOrders []wire.AutoOrder `json:"auto_orders"`
	Route      string           `json:"route,omitempty"`
	// SkippedWallets are the order's wallets that sent no transaction,
	// each with why.
	SkippedWallets []wire.WalletSkip `json:"skipped_wallets,omitempty"`
	Tax            *wire.TaxProbe    `json:"tax,omitempty"`
	// Deploy is a launch's mints and landed transactions.
	Deploy *wire.DeployResult `json:"deploy,omitempty"`
	// Bundles are the bundles the order sent through a block-engine relay
	// (an anti_mev swap's transactions, a launch's bundles), each with the
	// relay's verdict.
	Bundles   []wire.Bundle `json:"bundles,omitempty"`
	CreatedAt time.Time     `json:"created_at"`
	UpdatedAt time.Time     `json:"updated_at"`

	// Positions are a buy's positions, one per wallet, with the state of
	// each exit (armed, firing, fired with its sell's order id, cancelled,
	// failed), as the exits engine keeps them.
	Positions []wire.PositionView `json:"positions,omitempty"`
}

// order answers GET /api/v1/orders/{id} from the orders store. Another
// account's or family's order is as unknown as an order that never was.
func (h *handler) order(c *gin.Context) {
	id := c.Param("id")
	// An id no order can have is not echoed: it may be of any length.
	if !validKey(id) {
		envelope.Fail(c, apierr.Newf(apierr.NotFound, "order_id", "no such order on this account"))
		return
	}
	notFound := apierr.Newf(apierr.NotFound, "order_id", "no order %q on this account", id)
	o, err := h.s.orders.Get(c.Request.Context(), id)
	switch {
	case errors.Is(err, orders.ErrNotFound):
		envelope.Fail(c, notFound)
		return
	case damaged(err):
		envelope.Fail(c, apierr.Wrap(err, "the order record is damaged"))
		return
	case err != nil:
		h.storeFailed(c, "the order store", orderNotLooked, err, "read order", "order_id", id)
		return
	}
	if o.AccountID != c.GetString(ctxAccount) || o.Family != h.l.Family {
		envelope.Fail(c, notFound)
		return
	}
	envelope.OK(c, http.StatusOK, viewOf(o))
}

// viewOf renders an order record, with empty lists rather than nulls.
func viewOf(o *wire.Order) orderView {
	if o.Signatures == nil {
		o.Signatures = []wire.SigState{}
	}
	if o.AutoOrders == nil {
		o.AutoOrders = []wire.AutoOrder{}
	}
	return orderView{
		OrderID: o.OrderID, Kind: o.Kind, State: o.State, Chain: o.Chain, Side: o.Side, Address: o.Token, Mint: o.Mint,
		Skipped: o.Skipped, Signatures: o.Signatures, Error: o.Error, AutoOrders: o.AutoOrders, Route: o.Route, Tax: o.Tax,
		SkippedWallets: o.SkippedWallets,
		Deploy:         o.Deploy, Bundles: o.Bundles, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt, Positions: o.Positions,
	}
}

// damaged reports whether err is a record that does not decode, as
// opposed to a store that did not answer.
func damaged(err error) bool {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	return errors.As(err, &syntax) || errors.As(err, &typ)
}

// validKey reports whether s can be a KV key (and so an order id).
func validKey(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '-' || c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
			return false
		}
	}
	return true
}
