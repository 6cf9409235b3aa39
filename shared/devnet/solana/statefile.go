package solana

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"slices"
	"time"

	sol "github.com/gagliardetto/solana-go"
)

// The state file, format version 2. Integers are unsigned LEB128 varints
// unless noted; keys and hashes are their 32 raw bytes, signatures their 64;
// a byte string or string is its length and its bytes; a list is its length
// and its elements.
//
//	magic        8 bytes "DEVSOLST"
//	version      uint32, little endian
//	frames       each {length uint32 little endian, body, checksum uint32
//	             little endian: CRC-32C of the body}
//
// The first frame holds the whole state; each later one what changed since
// the frame before it, so that a save under load writes what the last
// seconds changed instead of the whole ledger again:
//
//	whole        kind byte 0, savedAt zigzag varint (Unix nanoseconds),
//	             seed string, slot, landed,
//	             blockhashes list of {hash, slot},
//	             prioFees list of {slot, min, seen byte},
//	             accounts list of {key, owner, lamports, flags byte
//	             (1: executable), data},
//	             records list of {raw transaction, slot, blockTime zigzag,
//	             err, fee, units, pre list, post list, preTok list,
//	             postTok list, logs list, inner list},
//	             sigs list of {signature, slot, err}
//	changes      kind byte 1, savedAt, slot, landed, blockhashes, prioFees
//	             (all of them, as in the whole state), accounts list of
//	             {key, present byte, and when present owner, lamports, flags,
//	             data}: every account written or closed since,
//	             records: the transactions landed since
//
// err is 0 for none, or 1 and {name, index, instr}, where instr is 0 for
// none or 1 and {name, code, reason}. A token balance is {index, mint,
// owner, program, amount, decimals byte}; an inner instruction is {top,
// program, accounts list, data, stackHeight}. Records are oldest first.
//
// A frame that a crash cut short is the last one in the file: it is the
// save the crash interrupted, and it is left out on reading (the chain
// comes back as of the save before, as it would from an interrupted
// rewrite). A damaged frame with others after it, or a damaged first
// frame, makes the file unreadable.
//
// Version 1 is the whole state alone, followed by the CRC-32C of every
// byte before it; it is still read, and rewritten as version 2 by the first
// save.
const (
	stateMagic   = "DEVSOLST"
	stateVersion = 2
	stateHeader  = len(stateMagic) + 4
	stateTrailer = 4
	frameHeader  = 4

	frameWhole   = 0
	frameChanges = 1
)

// ErrStateFile is wrapped by the error of Open for a state file that is not
// one, is damaged, or has a format version this build cannot read.
var ErrStateFile = errors.New("not a readable chain state file")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// stateDelta is what changed in the chain since the last frame written.
type stateDelta struct {
	stateClock
	// accounts written since; acc is nil for an account closed since.
	accounts []keyedAccount
	// records landed since, oldest first.
	records []*txRecord

	changes uint64 // Chain.changes when it was taken; not written
}

// encodeState renders st as a whole state file in the current format.
func encodeState(st *chainState) []byte {
	size := stateHeader + frameHeader + stateTrailer + 64 + len(st.seed) + 48*len(st.blockhashes) + 96*len(st.sigs)
	for _, ka := range st.accounts {
		size += 80 + len(ka.acc.Data)
	}
	size += recordsSize(st.records)
	w := stateWriter{b: make([]byte, 0, size)}
	w.b = append(w.b, stateMagic...)
	w.b = binary.LittleEndian.AppendUint32(w.b, stateVersion)
	w.frame(func() {
		w.b = append(w.b, frameWhole)
		w.b = binary.AppendVarint(w.b, st.savedAt.UnixNano())
		w.str(st.seed)
		w.clock(&st.stateClock)
		w.uint(uint64(len(st.accounts)))
		for _, ka := range st.accounts {
			w.b = append(w.b, ka.key[:]...)
			w.account(ka.acc)
		}
		w.records(st.records)
		w.uint(uint64(len(st.sigs)))
		for _, e := range st.sigs {
			w.b = append(w.b, e.sig[:]...)
			w.uint(e.slot)
			w.txErr(e.err)
		}
	})
	return w.b
}

// appendDelta renders d as a frame of changes at the end of buf[:0].
func appendDelta(buf []byte, d *stateDelta) []byte {
	w := stateWriter{b: buf[:0]}
	w.frame(func() {
		w.b = append(w.b, frameChanges)
		w.b = binary.AppendVarint(w.b, d.savedAt.UnixNano())
		w.clock(&d.stateClock)
		w.uint(uint64(len(d.accounts)))
		for _, ka := range d.accounts {
			w.b = append(w.b, ka.key[:]...)
			w.bool(ka.acc != nil)
			if ka.acc != nil {
				w.account(ka.acc)
			}
		}
		w.records(d.records)
	})
	return w.b
}

// recordsSize estimates the encoded size of records.
func recordsSize(records []*txRecord) int {
	size := 0
	for _, r := range records {
		size += 256 + len(r.p.raw) + 24*len(r.pre) + 128*(len(r.preTok)+len(r.postTok))
		for _, l := range r.logs {
			size += 2 + len(l)
		}
		for _, in := range r.inner {
			size += 8 + len(in.accounts) + len(in.data)
		}
	}
	return size
}

type stateWriter struct{ b []byte }

func (w *stateWriter) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }

func (w *stateWriter) bool(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

func (w *stateWriter) bytes(p []byte) {
	w.uint(uint64(len(p)))
	w.b = append(w.b, p...)
}

func (w *stateWriter) str(s string) {
	w.uint(uint64(len(s)))
	w.b = append(w.b, s...)
}

func (w *stateWriter) uints(v []uint64) {
	w.uint(uint64(len(v)))
	for _, x := range v {
		w.uint(x)
	}
}

func (w *stateWriter) tokenBalances(tb []tokenBalance) {
	w.uint(uint64(len(tb)))
	for _, b := range tb {
		w.uint(uint64(b.index))
		w.b = append(w.b, b.mint[:]...)
		w.b = append(w.b, b.owner[:]...)
		w.b = append(w.b, b.program[:]...)
		w.uint(b.amount)
		w.b = append(w.b, b.decimals)
	}
}

func (w *stateWriter) txErr(e *txError) {
	if e == nil {
		w.bool(false)
		return
	}
	w.bool(true)
	w.str(e.name)
	w.uint(uint64(e.index))
	if e.instr == nil {
		w.bool(false)
		return
	}
	w.bool(true)
	w.str(e.instr.name)
	w.uint(uint64(e.instr.code))
	w.str(e.instr.reason)
}

// frame writes the length, the body body writes, and the body's checksum.
func (w *stateWriter) frame(body func()) {
	at := len(w.b)
	w.b = append(w.b, 0, 0, 0, 0)
	body()
	binary.LittleEndian.PutUint32(w.b[at:], uint32(len(w.b)-at-frameHeader))
	w.b = binary.LittleEndian.AppendUint32(w.b, crc32.Checksum(w.b[at+frameHeader:], castagnoli))
}

// clock writes c without its savedAt, which comes before the seed in a
// whole state.
func (w *stateWriter) clock(c *stateClock) {
	w.uint(c.slot)
	w.uint(c.landed)
	w.uint(uint64(len(c.blockhashes)))
	for h, s := range c.blockhashes {
		w.b = append(w.b, h[:]...)
		w.uint(s)
	}
	w.uint(uint64(len(c.prioFees)))
	for _, f := range c.prioFees {
		w.uint(f.slot)
		w.uint(f.min)
		w.bool(f.seen)
	}
}

func (w *stateWriter) account(a *Account) {
	w.b = append(w.b, a.Owner[:]...)
	w.uint(a.Lamports)
	w.bool(a.Executable)
	w.bytes(a.Data)
}

func (w *stateWriter) records(records []*txRecord) {
	w.uint(uint64(len(records)))
	for _, r := range records {
		w.bytes(r.p.raw)
		w.uint(r.slot)
		w.b = binary.AppendVarint(w.b, r.blockTime)
		w.txErr(r.err)
		w.uint(r.fee)
		w.uint(r.units)
		w.uints(r.pre)
		w.uints(r.post)
		w.tokenBalances(r.preTok)
		w.tokenBalances(r.postTok)
		w.uint(uint64(len(r.logs)))
		for _, l := range r.logs {
			w.str(l)
		}
		w.uint(uint64(len(r.inner)))
		for _, in := range r.inner {
			w.uint(uint64(in.top))
			w.uint(uint64(in.program))
			w.uint(uint64(len(in.accounts)))
			for _, a := range in.accounts {
				w.uint(uint64(a))
			}
			w.bytes(in.data)
			w.uint(uint64(in.stackHeight))
		}
	}
}

// readStateFile reads and decodes a state file. A missing file is an error
// matching fs.ErrNotExist; anything else that is wrong wraps ErrStateFile.
// torn is the length of the interrupted save left out at the end.
func readStateFile(path string) (st *chainState, torn int, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	return decodeState(b)
}

// decodeState checks the header and the checksums of b and decodes it.
func decodeState(b []byte) (*chainState, int, error) {
	if len(b) < stateHeader || string(b[:len(stateMagic)]) != stateMagic {
		return nil, 0, fmt.Errorf("%w: no %q header", ErrStateFile, stateMagic)
	}
	switch v := binary.LittleEndian.Uint32(b[len(stateMagic):]); v {
	case 1:
		st, err := decodeVersion1(b)
		return st, 0, err
	case stateVersion:
	default:
		return nil, 0, fmt.Errorf("%w: format version %d, this build reads versions 1 and %d", ErrStateFile, v, stateVersion)
	}
	var st *chainState
	var index map[sol.PublicKey]int // an account's place in st.accounts
	for off := stateHeader; off < len(b); {
		body, next, ok := readFrame(b, off)
		switch {
		case !ok && st == nil:
			return nil, 0, fmt.Errorf("%w: checksum mismatch, the file is damaged or truncated", ErrStateFile)
		case !ok && next < len(b):
			return nil, 0, fmt.Errorf("%w: checksum mismatch in the frame at byte %d, which is not the last", ErrStateFile, off)
		case !ok:
			return st, len(b) - off, nil
		}
		r := stateReader{b: body}
		kind := r.take(1)
		switch {
		case kind == nil:
		case kind[0] == frameWhole && st == nil:
			st = r.whole()
		case kind[0] == frameChanges && st != nil:
			if index == nil {
				index = make(map[sol.PublicKey]int, len(st.accounts))
				for i, ka := range st.accounts {
					index[ka.key] = i
				}
			}
			r.changes(st, index)
		default:
			r.fail("frame kind %d at byte %d", kind[0], off)
		}
		if r.err == nil && r.off != len(r.b) {
			r.fail("%d bytes after the last section", len(r.b)-r.off)
		}
		if r.err != nil {
			return nil, 0, fmt.Errorf("%w: %v", ErrStateFile, r.err)
		}
		off = next
	}
	if st == nil {
		return nil, 0, fmt.Errorf("%w: no state after the header", ErrStateFile)
	}
	if index != nil {
		// Accounts closed by a later frame were left nil in place.
		st.accounts = slices.DeleteFunc(st.accounts, func(ka keyedAccount) bool { return ka.acc == nil })
	}
	return st, 0, nil
}

// readFrame returns the body of the frame at off and where the next one
// starts. ok is false for a frame that is cut short (next is then the end
// of b) or whose checksum does not match.
func readFrame(b []byte, off int) (body []byte, next int, ok bool) {
	if len(b)-off < frameHeader+stateTrailer {
		return nil, len(b), false
	}
	n := int64(binary.LittleEndian.Uint32(b[off:]))
	end := int64(off) + frameHeader + n + stateTrailer
	if end > int64(len(b)) {
		return nil, len(b), false
	}
	body = b[off+frameHeader : int(end)-stateTrailer]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[int(end)-stateTrailer:]) {
		return nil, int(end), false
	}
	return body, int(end), true
}

// decodeVersion1 decodes a version 1 file: the whole state and a checksum
// of everything before it.
func decodeVersion1(b []byte) (*chainState, error) {
	if len(b) < stateHeader+stateTrailer {
		return nil, fmt.Errorf("%w: checksum mismatch, the file is damaged or truncated", ErrStateFile)
	}
	body := b[:len(b)-stateTrailer]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(body):]) {
		return nil, fmt.Errorf("%w: checksum mismatch, the file is damaged or truncated", ErrStateFile)
	}
	r := stateReader{b: body, off: stateHeader}
	st := r.whole()
	if r.err == nil && r.off != len(r.b) {
		r.fail("%d bytes after the last section", len(r.b)-r.off)
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: %v", ErrStateFile, r.err)
	}
	return st, nil
}

// whole reads a whole state.
func (r *stateReader) whole() *chainState {
	st := &chainState{}
	st.savedAt = time.Unix(0, r.varint())
	st.seed = r.str()
	r.clock(&st.stateClock)
	st.accounts = make([]keyedAccount, r.count(67))
	for i := range st.accounts {
		st.accounts[i] = keyedAccount{r.key(), r.account()}
	}
	st.records = r.records()
	st.sigs = make([]sigEntry, r.count(66))
	for i := range st.sigs {
		e := &st.sigs[i]
		copy(e.sig[:], r.take(64))
		e.slot = r.uint()
		e.err = r.txErr()
	}
	return st
}

// changes reads a frame of changes into st; index places st's accounts.
// A closed account is set to nil in place, and removed by the caller once
// every frame is read.
func (r *stateReader) changes(st *chainState, index map[sol.PublicKey]int) {
	st.savedAt = time.Unix(0, r.varint())
	r.clock(&st.stateClock)
	for range r.count(33) {
		k := r.key()
		var a *Account
		if r.bool() {
			a = r.account()
		}
		if i, ok := index[k]; ok {
			st.accounts[i].acc = a
		} else if a != nil {
			index[k] = len(st.accounts)
			st.accounts = append(st.accounts, keyedAccount{k, a})
		}
	}
	st.records = append(st.records, r.records()...)
}

// clock reads c, all but its savedAt.
func (r *stateReader) clock(c *stateClock) {
	c.slot = r.uint()
	c.landed = r.uint()
	nh := r.count(33)
	c.blockhashes = make(map[sol.Hash]uint64, nh)
	for range nh {
		h := sol.Hash(r.key())
		c.blockhashes[h] = r.uint()
	}
	c.prioFees = make([]slotPrioFee, r.count(3))
	for i := range c.prioFees {
		c.prioFees[i] = slotPrioFee{slot: r.uint(), min: r.uint(), seen: r.bool()}
	}
}

func (r *stateReader) account() *Account {
	a := &Account{Owner: r.key(), Lamports: r.uint(), Executable: r.bool()}
	if d := r.bytes(); len(d) > 0 {
		a.Data = d
	}
	return a
}

func (r *stateReader) records() []*txRecord {
	records := make([]*txRecord, r.count(12))
	for i := range records {
		rec := &txRecord{p: &parsedTx{raw: r.bytes()}, slot: r.uint(), blockTime: r.varint()}
		rec.err = r.txErr()
		rec.fee = r.uint()
		rec.units = r.uint()
		rec.pre = r.uints()
		rec.post = r.uints()
		rec.preTok = r.tokenBalances()
		rec.postTok = r.tokenBalances()
		if n := r.count(1); n > 0 {
			rec.logs = make([]string, n)
			for j := range rec.logs {
				rec.logs[j] = r.str()
			}
		}
		if n := r.count(5); n > 0 {
			rec.inner = make([]innerInstruction, n)
			for j := range rec.inner {
				in := &rec.inner[j]
				in.top = r.int()
				in.program = r.int()
				in.accounts = make([]int, r.count(1))
				for k := range in.accounts {
					in.accounts[k] = r.int()
				}
				in.data = r.bytes()
				in.stackHeight = r.int()
			}
		}
		records[i] = rec
	}
	return records
}

// stateReader decodes a state file body. The first error sticks: later
// reads return zero values, and the caller checks err once at the end.
type stateReader struct {
	b   []byte
	off int
	err error
}

func (r *stateReader) fail(format string, a ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("at byte %d: bad "+format, append([]any{r.off}, a...)...)
	}
}

func (r *stateReader) uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.fail("varint")
		return 0
	}
	r.off += n
	return v
}

func (r *stateReader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b[r.off:])
	if n <= 0 {
		r.fail("varint")
		return 0
	}
	r.off += n
	return v
}

// int reads a count or index that the chain keeps as an int.
func (r *stateReader) int() int {
	v := r.uint()
	if v > math.MaxInt32 {
		r.fail("index %d", v)
		return 0
	}
	return int(v)
}

// count reads the length of a list whose elements take at least minSize
// bytes each; a length the remaining bytes cannot hold is corrupt, which
// keeps a damaged length from allocating gigabytes.
func (r *stateReader) count(minSize int) int {
	n := r.int()
	if r.err == nil && n > (len(r.b)-r.off)/minSize {
		r.fail("list length %d", n)
		return 0
	}
	return n
}

func (r *stateReader) bool() bool {
	p := r.take(1)
	if p == nil {
		return false
	}
	if p[0] > 1 {
		r.fail("flag %d", p[0])
	}
	return p[0] == 1
}

// take returns the next n bytes, sharing the body.
func (r *stateReader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b)-r.off {
		r.fail("length %d", n)
		return nil
	}
	p := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return p
}

// bytes returns a copy of the next byte string, so the ledger does not
// keep the whole file alive through one account.
func (r *stateReader) bytes() []byte {
	p := r.take(r.count(1))
	if len(p) == 0 {
		return nil
	}
	return append([]byte(nil), p...)
}

func (r *stateReader) str() string { return string(r.take(r.count(1))) }

func (r *stateReader) key() (k sol.PublicKey) {
	copy(k[:], r.take(32))
	return k
}

func (r *stateReader) uints() []uint64 {
	n := r.count(1)
	if n == 0 {
		return []uint64{}
	}
	out := make([]uint64, n)
	for i := range out {
		out[i] = r.uint()
	}
	return out
}

func (r *stateReader) tokenBalances() []tokenBalance {
	n := r.count(99)
	if n == 0 {
		return nil
	}
	out := make([]tokenBalance, n)
	for i := range out {
		out[i] = tokenBalance{index: r.int(), mint: r.key(), owner: r.key(), program: r.key(), amount: r.uint()}
		if p := r.take(1); p != nil {
			out[i].decimals = p[0]
		}
	}
	return out
}

func (r *stateReader) txErr() *txError {
	if !r.bool() {
		return nil
	}
	e := &txError{name: r.str(), index: r.int()}
	if r.bool() {
		e.instr = &instrError{name: r.str()}
		if code := r.uint(); code <= math.MaxUint32 {
			e.instr.code = uint32(code)
		} else {
			r.fail("error code %d", code)
		}
		e.instr.reason = r.str()
	}
	return e
}
