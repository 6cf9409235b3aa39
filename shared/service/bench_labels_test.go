package service

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
)

// TestComponentsHaveProfileRoles reads the composition root's sources for
// every component it starts (stage.goRun) and checks that each belongs to
// one of the roles a CPU profile is split by, so that a component added
// later does not show up in `go tool pprof -tags` under a name of its own.
func TestComponentsHaveProfileRoles(t *testing.T) {
	t.Parallel()
	roles := map[string]bool{RoleIngress: true, RoleWorker: true, RoleBroadcaster: true, RoleExits: true,
		RoleRegistry: true, RoleDevnet: true, RoleMetrics: true}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var names []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "goRun" {
				return true
			}
			name, ok := componentName(call.Args[0])
			if !ok {
				t.Errorf("%s: goRun with a name that is not a string constant: the role cannot be checked", fset.Position(call.Pos()))
				return true
			}
			names = append(names, name)
			return true
		})
	}
	// Every role of up starts at least one component by name.
	if len(names) < 10 {
		t.Fatalf("found %d components (%v), want every component of up", len(names), names)
	}
	for _, name := range names {
		if r := ComponentRole(name); !roles[r] {
			t.Errorf("component %q has role %q; add it to componentRoles (profile.go)", name, r)
		}
	}
}

// componentName is the name a goRun call gives: a string constant, or a
// constant followed by a chain ("worker "+name), which stands for any.
func componentName(e ast.Expr) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(x.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if prefix, ok := componentName(x.X); ok && x.Op == token.ADD {
			return prefix + "base", true
		}
	}
	return "", false
}

func TestComponentRole(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"ingress": RoleIngress, "budget": RoleIngress, "backlog": RoleIngress,
		"worker solana": RoleWorker, "worker base": RoleWorker, "blockhash solana": RoleWorker,
		"broadcaster": RoleBroadcaster, "webhooks": RoleBroadcaster,
		"registry": RoleRegistry, "registry view": RoleRegistry, "venues view": RoleRegistry,
		"exits": RoleExits, "devnet": RoleDevnet, "metrics": RoleMetrics,
		// Unknown: its first word, never empty.
		"ledger sweeper": "ledger",
	} {
		if got := ComponentRole(name); got != want {
			t.Errorf("ComponentRole(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestGoRunLabelsAndErrors checks that a component runs with its role and
// name as profile labels, and that its failure still reaches the stage and
// the fail callback under its name.
func TestGoRunLabelsAndErrors(t *testing.T) {
	t.Parallel()
	s := newStage()
	var role, component string
	var failed error
	s.goRun("worker solana", func(ctx context.Context) error {
		role, _ = pprof.Label(ctx, LabelRole)
		component, _ = pprof.Label(ctx, LabelComponent)
		return errors.New("boom")
	}, func(err error) { failed = err })
	err := s.stop()
	if role != RoleWorker || component != "worker solana" {
		t.Errorf("labels role=%q component=%q, want role=%q component=%q", role, component, RoleWorker, "worker solana")
	}
	if err == nil || err.Error() != "worker solana: boom" || failed == nil || failed.Error() != err.Error() {
		t.Errorf("stop() = %v, fail got %v; want worker solana: boom from both", err, failed)
	}

	s = newStage()
	s.goRun("exits", func(ctx context.Context) error {
		<-ctx.Done()
		return ctx.Err()
	}, func(err error) { t.Errorf("a cancelled component failed: %v", err) })
	if err := s.stop(); err != nil {
		t.Errorf("stop() of a cancelled component = %v, want nil", err)
	}
}
