package solana

import (
	"bytes"
	"math/rand/v2"
	"testing"

	sol "github.com/gagliardetto/solana-go"
)

// TestEncodeBase58MatchesSolanaGo holds encodeBase58 to solana-go's
// Signature.String and PublicKey.String on signatures and keys, and on
// every shorter length through a signature's: n leading zero bytes encode
// as n '1's before the rest. Inputs are all zeros, all ones, and random
// bytes, some with leading zero bytes or small values.
func TestEncodeBase58MatchesSolanaGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(b []byte) {
		t.Helper()
		got := encodeBase58(b)
		pad := 64 - len(b)
		want := sol.SignatureFromBytes(append(make([]byte, pad), b...)).String()[pad:]
		if got != want {
			t.Fatalf("%x: %q, solana-go %q", b, got, want)
		}
		if len(b) == 32 {
			if want := sol.PublicKeyFromBytes(b).String(); got != want {
				t.Fatalf("key %x: %q, solana-go %q", b, got, want)
			}
		}
	}
	for size := 0; size <= 64; size++ {
		check(make([]byte, size))
		check(bytes.Repeat([]byte{0xff}, size))
		for range 500 {
			b := make([]byte, size)
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			if size > 0 && rng.IntN(10) == 0 {
				clear(b[:rng.IntN(size)])
			}
			if size > 0 && rng.IntN(10) == 0 {
				clear(b[:size-1])
			}
			check(b)
		}
	}
}

// BenchmarkEncodeBase58 compares encodeBase58 with solana-go's
// Signature.String on one signature.
func BenchmarkEncodeBase58(b *testing.B) {
	var sig sol.Signature
	for i := range sig {
		sig[i] = byte(i*7 + 1)
	}
	b.Run("encodeBase58", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = encodeBase58(sig[:])
		}
	})
	b.Run("solana-go", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = sig.String()
		}
	})
}
