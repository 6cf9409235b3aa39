package anchor

import (
	"strings"
	"testing"

	"github.com/gagliardetto/solana-go"
)

func TestFindPDA(t *testing.T) {
	// pump.fun's Global account, as the chain has it.
	program := solana.MustPublicKeyFromBase58("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P")
	want := solana.MustPublicKeyFromBase58("4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf")
	seed := []byte("global")

	addr, bump := FindPDA(program, seed)
	if addr != want {
		t.Fatalf("address %s, want %s", addr, want)
	}
	if PDA(program, seed) != want {
		t.Fatal("PDA differs from FindPDA")
	}
	// The bump is the canonical one: it derives the address, and every
	// higher bump gives a point on the curve.
	if got, err := solana.CreateProgramAddress([][]byte{seed, {bump}}, program); err != nil || got != want {
		t.Fatalf("bump %d derives %s, %v", bump, got, err)
	}
	for b := int(bump) + 1; b <= 255; b++ {
		if _, err := solana.CreateProgramAddress([][]byte{seed, {byte(b)}}, program); err == nil {
			t.Fatalf("bump %d is off the curve too, %d is not canonical", b, bump)
		}
	}
}

func TestFindPDAPanicsNamingTheProgram(t *testing.T) {
	program := solana.MustPublicKeyFromBase58("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P")
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, program.String()) {
			t.Fatalf("panic %v does not name the program", r)
		}
	}()
	// A seed is at most 32 bytes.
	FindPDA(program, make([]byte, 33))
}
