package service

import (
	"context"
	"runtime/pprof"
	"strings"
)

// Profile labels. Every component's goroutine, and every goroutine it
// starts (labels are inherited), carries LabelRole, the role whose work it
// is, and LabelComponent, the component's name, so that a CPU profile of a
// process running several roles (`tradeapi up`) splits by role:
// `go tool pprof -tags`, or `-tagfocus role=worker`.
const (
	LabelRole      = "role"
	LabelComponent = "component"
)

// Roles of goroutines that belong to no role of the service's own.
const (
	// RoleNATS labels the embedded NATS server and the connections' I/O
	// goroutines, which start where the composition root dials, outside
	// any component. The composition root does not label itself; a program
	// that embeds Up labels the goroutine that calls Run with it.
	RoleNATS = "nats"
	// RoleMetrics labels the metrics listener.
	RoleMetrics = "metrics"
)

// componentRoles names the role of each component the composition root
// starts by a name of its own. The rate budget's watch and the backlog
// serve ingress, and the webhook dispatcher (with its book of webhooks)
// runs beside the broadcaster on its consumer. The registry and venues views are read models kept by
// a watch of their bucket in whichever role reads them; they count as the
// registry's, whose data they carry.
var componentRoles = map[string]string{
	"ingress":        RoleIngress,
	"budget":         RoleIngress,
	"backlog":        RoleIngress,
	"registry":       RoleRegistry,
	"registry view":  RoleRegistry,
	"venues view":    RoleRegistry,
	"broadcaster":    RoleBroadcaster,
	"webhooks":       RoleBroadcaster,
	"webhook book":   RoleBroadcaster,
	"evm nonce gaps": RoleWorker,
	"exits":          RoleExits,
	"devnet":         RoleDevnet,
	"metrics":        RoleMetrics,
}

// ComponentRole returns the role of the component named name: the table
// above, then "worker <chain>" and "blockhash <chain>" as the worker role,
// then the name's first word, so that a component added without an entry
// still shows up in a profile under a name of its own.
func ComponentRole(name string) string {
	if r, ok := componentRoles[name]; ok {
		return r
	}
	first, _, _ := strings.Cut(name, " ")
	switch first {
	case "worker", "blockhash":
		return RoleWorker
	}
	return first
}

// labelled runs f on the calling goroutine with the profile labels of the
// component named name; ctx passes on to f with the labels in it.
func labelled(ctx context.Context, name string, f func(context.Context)) {
	pprof.Do(ctx, pprof.Labels(LabelRole, ComponentRole(name), LabelComponent, name), f)
}
