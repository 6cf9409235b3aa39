package solana

// base58Alphabet is Bitcoin's, which Solana uses for keys and signatures.
const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// base58Limb is 58^5, the largest power of 58 below 2^32: the number is
// divided by it one 32-bit limb at a time, five digits per pass, with
// divisions by a constant the compiler turns into multiplications.
const base58Limb = 58 * 58 * 58 * 58 * 58

// encodeBase58 returns b in base58, what a signature's or a key's String
// returns, for b of at most 64 bytes. String encodes a byte at a time, which
// costs a tenth of an ed25519 signature per signature encoded, and every
// signed transaction is named by its signature.
// TestEncodeBase58MatchesSolanaGo holds the two to the same text.
func encodeBase58(b []byte) string {
	if len(b) > 64 {
		panic("encodeBase58: more than 64 bytes")
	}
	zeros := 0
	for zeros < len(b) && b[zeros] == 0 {
		zeros++
	}
	// The number, big-endian, in 32-bit limbs; the first may be partial.
	var buf [16]uint32
	limbs := buf[:(len(b)-zeros+3)/4]
	pad := len(limbs)*4 - (len(b) - zeros)
	for i, c := range b[zeros:] {
		j := i + pad
		limbs[j/4] |= uint32(c) << (8 * (3 - j%4))
	}
	// Digits come out least significant first; 64 bytes need at most 88.
	var digits [90]byte
	n := 0
	for start := 0; start < len(limbs); {
		var rem uint64
		for i := start; i < len(limbs); i++ {
			cur := rem<<32 | uint64(limbs[i])
			limbs[i] = uint32(cur / base58Limb)
			rem = cur % base58Limb
		}
		for start < len(limbs) && limbs[start] == 0 {
			start++
		}
		r := uint32(rem)
		for range 5 {
			digits[n] = byte(r % 58)
			r /= 58
			n++
		}
	}
	// The last pass may leave zero digits above the number's highest.
	for n > 0 && digits[n-1] == 0 {
		n--
	}
	var out [64 + 90]byte
	for i := range zeros {
		out[i] = base58Alphabet[0]
	}
	for i := range n {
		out[zeros+i] = base58Alphabet[digits[n-1-i]]
	}
	return string(out[:zeros+n])
}
