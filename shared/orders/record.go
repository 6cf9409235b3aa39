package orders

import (
	"time"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// Origin is what a new order record is made from: the fields that never
// change after the order was accepted. Whoever creates the record first
// (ingress when it accepts the order, the worker or broadcaster when that
// record was lost to a NATS fail-over, the exits engine for an exit sell)
// builds it through New, so every copy of a new record agrees.
type Origin struct {
	OrderID    string
	AccountID  string
	Family     wire.Family
	Kind       string // wire.KindSwap or wire.KindDeploy
	Chain      string
	Side       wire.Side // swaps only
	Token      string    // swaps only
	AutoOrders []wire.AutoOrder
	CreatedAt  time.Time
}

// New returns the pending record of a new order, with empty (never null)
// signature and auto-order lists, as the order lookup shows them.
func New(o Origin) *wire.Order {
	aos := o.AutoOrders
	if aos == nil {
		aos = []wire.AutoOrder{}
	}
	return &wire.Order{
		OrderID: o.OrderID, AccountID: o.AccountID, Family: o.Family, Kind: o.Kind,
		State: wire.StatePending, Chain: o.Chain, Side: o.Side, Token: o.Token,
		Signatures: []wire.SigState{}, AutoOrders: aos,
		CreatedAt: o.CreatedAt, UpdatedAt: o.CreatedAt,
	}
}

// OfSwap is the origin of a swap job's record.
func OfSwap(j *wire.SwapJob) Origin {
	return Origin{OrderID: j.OrderID, AccountID: j.AccountID, Family: j.Family, Kind: wire.KindSwap,
		Chain: j.Chain, Side: j.Side, Token: j.Token, AutoOrders: j.AutoOrders, CreatedAt: j.CreatedAt}
}

// OfDeploy is the origin of a deploy job's record; launches are Solana only.
func OfDeploy(j *wire.DeployJob) Origin {
	return Origin{OrderID: j.OrderID, AccountID: j.AccountID, Family: wire.FamilySol, Kind: wire.KindDeploy,
		Chain: wire.ChainSolana, CreatedAt: j.CreatedAt}
}

// OfBatch is the origin of the order a signed batch belongs to, for a
// broadcaster that finds no record: the batch carries everything the
// record's fixed fields need, including the buy's auto-orders.
func OfBatch(b *wire.TxBatch) Origin {
	kind := b.Kind
	if kind == "" {
		kind = wire.KindSwap
	}
	return Origin{OrderID: b.OrderID, AccountID: b.AccountID, Family: b.Family, Kind: kind,
		Chain: b.Chain, Side: b.Side, Token: b.Token, AutoOrders: b.AutoOrders, CreatedAt: b.SignedAt}
}
