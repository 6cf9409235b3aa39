package events

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// MaxURLLen is the longest webhook URL accepted.
const MaxURLLen = 2048

// Target is where an account's events go and the secret they are signed
// with.
type Target struct {
	URL    string
	Secret string
	// Since is when the account has had a webhook without a break (one
	// set in place of another keeps the first's time); zero when unknown.
	// An event emitted again is not posted when it is older: nobody was
	// there to be told at its first emission.
	Since time.Time
}

// Targets finds an account's webhook. ok is false when the account has
// none; err means it could not be looked up and the event should wait.
type Targets interface {
	Target(ctx context.Context, accountID string) (t Target, ok bool, err error)
}

// TargetsFunc adapts a function to Targets.
type TargetsFunc func(ctx context.Context, accountID string) (Target, bool, error)

// Target calls f.
func (f TargetsFunc) Target(ctx context.Context, accountID string) (Target, bool, error) {
	return f(ctx, accountID)
}

// ErrTargetRefused is wrapped by CheckURL and by a delivery whose host
// resolves to an address webhooks may not reach.
var ErrTargetRefused = errors.New("webhook target not allowed")

// CheckURL validates a webhook URL: http or https, a host, no user name or
// password (the signature authenticates the sender) and no fragment, at
// most MaxURLLen bytes, a port (when given) from 1 to 65535. A host that
// is a cloud metadata, link-local, multicast or unspecified address is
// refused (a link-local one is where most clouds serve their instance
// metadata), and so is a loopback address or localhost
// unless allowLocal is set (the local development mode, whose bots run on
// this machine); private network addresses are allowed, since a
// self-hosted service's bots often sit beside it. The dispatcher checks
// the resolved addresses again when it connects.
func CheckURL(raw string, allowLocal bool) (*url.URL, error) {
	if raw == "" || len(raw) > MaxURLLen {
		return nil, fmt.Errorf("%w: the url must be 1 to %d bytes", ErrTargetRefused, MaxURLLen)
	}
	if strings.ContainsRune(raw, utf8.RuneError) {
		// What a JSON decoder puts for bytes that are not UTF-8: stored,
		// deliveries would go to a path nobody typed.
		return nil, fmt.Errorf("%w: the url holds U+FFFD, the mark of a character that could not be decoded (bytes that are not UTF-8, or a lone surrogate)", ErrTargetRefused)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: not a url", ErrTargetRefused)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return nil, fmt.Errorf("%w: the scheme must be http or https", ErrTargetRefused)
	}
	if u.Opaque != "" || u.Hostname() == "" {
		return nil, fmt.Errorf("%w: the url has no host", ErrTargetRefused)
	}
	if u.User != nil {
		return nil, fmt.Errorf("%w: the url must not carry a user name or password", ErrTargetRefused)
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return nil, fmt.Errorf("%w: the url must not have a fragment", ErrTargetRefused)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("%w: the port must be 1 to 65535", ErrTargetRefused)
		}
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if !isASCII(host) {
		// The host as the HTTP client will look it up: an international
		// name in its ASCII form, and the ideographic and full-width dots
		// (169。254。169。254) made plain dots, which can spell an address.
		a, err := idna.Lookup.ToASCII(host)
		if err != nil {
			return nil, fmt.Errorf("%w: %q is not a valid host name", ErrTargetRefused, host)
		}
		host = strings.ToLower(strings.TrimSuffix(a, "."))
	}
	if !allowLocal && (host == "localhost" || strings.HasSuffix(host, ".localhost")) {
		return nil, fmt.Errorf("%w: %s is this machine; only the local development mode sends there", ErrTargetRefused, host)
	}
	ip, err := netip.ParseAddr(host)
	if err != nil && numericHost(host) {
		// 127.1, 2130706433, 0x7f000001: what some resolvers read as an
		// IPv4 address and Go's does not; a delivery there never arrives.
		return nil, fmt.Errorf("%w: %s is neither a host name nor a dotted IPv4 address (four numbers 0 to 255)", ErrTargetRefused, host)
	}
	if err == nil && ip.Zone() != "" {
		// An interface of this machine: no receiver elsewhere needs one.
		return nil, fmt.Errorf("%w: %s names an interface zone of this machine", ErrTargetRefused, host)
	}
	if err == nil && !AllowedAddr(ip, allowLocal) {
		if allowLocal {
			return nil, fmt.Errorf("%w: %s is a cloud metadata, link-local, multicast or unspecified address", ErrTargetRefused, host)
		}
		return nil, fmt.Errorf("%w: %s is a loopback, cloud metadata, link-local, multicast or unspecified address", ErrTargetRefused, host)
	}
	// url.URL keeps a query as it was given: a space or a non-ASCII
	// character there would go out as it is, a request line no server
	// takes (a URL stored so before is sent encoded too).
	u.RawQuery = escapeQuery(u.RawQuery)
	return u, nil
}

// StoredURL returns the form of a webhook URL to store: raw as CheckURL
// parsed it, written back (percent-encoded), and judged again by CheckURL
// as that string, which is what the dispatcher checks before each
// delivery. A URL under MaxURLLen can grow past it once encoded (each
// non-ASCII byte becomes three), so judging raw alone would accept a URL
// every delivery then refuses. u is what CheckURL returned for the stored
// form.
func StoredURL(raw string, allowLocal bool) (stored string, u *url.URL, err error) {
	first, err := CheckURL(raw, allowLocal)
	if err != nil {
		return "", nil, err
	}
	stored = first.String()
	if len(stored) > MaxURLLen {
		return "", nil, fmt.Errorf("%w: the url must be at most %d bytes percent-encoded, as it is stored; it is %d",
			ErrTargetRefused, MaxURLLen, len(stored))
	}
	if u, err = CheckURL(stored, allowLocal); err != nil {
		return "", nil, err
	}
	return stored, u, nil
}

// escapeQuery percent-encodes every byte of a raw query that a query may
// not hold as it is (RFC 3986: unreserved, sub-delims, ":", "@", "/", "?"
// and percent-escapes may stand), a "%" that begins no escape included;
// what may stand is kept as given.
func escapeQuery(q string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		c := q[i]
		if queryByte(c) || c == '%' && i+2 < len(q) && isHex(q[i+1]) && isHex(q[i+2]) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// queryByte reports whether c may stand in a query as it is.
func queryByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~!$&'()*+,;=:@/?", c) >= 0
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isASCII reports whether s is plain ASCII.
func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// numericHost reports whether host's last label is a number (decimal,
// octal or 0x hex): no top-level domain is, so it is meant as an address.
func numericHost(host string) bool {
	last := host[strings.LastIndex(host, ".")+1:]
	if h, ok := strings.CutPrefix(last, "0x"); ok {
		last = h
		return last == "" || strings.Trim(last, "0123456789abcdef") == ""
	}
	return last != "" && strings.Trim(last, "0123456789") == ""
}

// metadataAddrs are the clouds' instance metadata services that are not at
// a link-local address, refused in every mode.
var metadataAddrs = map[netip.Addr]bool{
	netip.MustParseAddr("fd00:ec2::254"):   true, // AWS, over IPv6
	netip.MustParseAddr("fd20:ce::254"):    true, // Google Cloud, over IPv6
	netip.MustParseAddr("100.100.100.200"): true, // Alibaba Cloud
	netip.MustParseAddr("168.63.129.16"):   true, // Azure's wire server
	netip.MustParseAddr("192.0.0.192"):     true, // Oracle Cloud
	netip.MustParseAddr("255.255.255.255"): true, // the limited broadcast, no one host's
}

// nat64 is the well-known NAT64 prefix (RFC 6052), whose addresses reach
// the IPv4 address in their last 32 bits.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// AllowedAddr reports whether a webhook may connect to ip: never a cloud
// metadata, link-local, multicast or unspecified address, and a loopback
// one only with allowLocal. An IPv6 address that carries an IPv4 one
// (IPv4-mapped, IPv4-compatible, NAT64) is judged by the IPv4 address,
// which is where it leads.
func AllowedAddr(ip netip.Addr, allowLocal bool) bool {
	// The zone first: ::1%lo is ::1, whatever the interface named (compared
	// with its zone, it passed for an IPv4-compatible address, 0.0.0.1).
	ip = ip.WithZone("")
	if ip.Is6() && !ip.Is4In6() {
		b := ip.As16()
		if nat64.Contains(ip) || [12]byte(b[:12]) == [12]byte{} && ip != netip.IPv6Unspecified() && ip != netip.IPv6Loopback() {
			ip = netip.AddrFrom4([4]byte(b[12:]))
		}
	}
	ip = ip.Unmap().WithZone("")
	return ip.IsValid() && !metadataAddrs[ip] && (allowLocal || !ip.IsLoopback()) && !ip.IsUnspecified() &&
		!ip.IsLinkLocalUnicast() && !ip.IsLinkLocalMulticast() && !ip.IsInterfaceLocalMulticast() && !ip.IsMulticast()
}

// dialControl refuses connections to addresses AllowedAddr refuses, after
// name resolution, so a name that resolves to a loopback address is refused
// as its literal is.
func dialControl(allowLocal bool) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return fmt.Errorf("%w: %s", ErrTargetRefused, address)
		}
		ip, err := netip.ParseAddr(host)
		if err != nil || !AllowedAddr(ip, allowLocal) {
			return fmt.Errorf("%w: %s", ErrTargetRefused, host)
		}
		return nil
	}
}
