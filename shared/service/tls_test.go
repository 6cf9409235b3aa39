package service

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/registry/server"
)

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns
// their paths and a pool that trusts the certificate.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "tradeapi test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// TestTLSOnEveryListener serves the public, admin and metrics listeners
// over TLS from the config.
func TestTLSOnEveryListener(t *testing.T) {
	t.Parallel()
	certFile, keyFile, pool := selfSigned(t)
	u, cfg := startUp(t, func(c *config.Config) { c.TLS = config.TLS{CertFile: certFile, KeyFile: keyFile} })
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	for _, tc := range []struct{ url, token string }{
		{"https://" + cfg.Listen.SolEU + "/ping", u.Demo.SolKey},
		{"https://" + cfg.Listen.EVM + "/ping", u.Demo.EVMKey},
		{"https://" + cfg.Listen.Admin + "/admin/v1/accounts", u.Secrets.AdminToken},
		{"https://" + cfg.Listen.Metrics + "/readyz", ""},
	} {
		req, _ := http.NewRequest("GET", tc.url, nil)
		req.Header.Set("Authorization", "Bearer "+tc.token)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tc.url, err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.TLS == nil {
			t.Fatalf("%s: %d", tc.url, resp.StatusCode)
		}
	}
	// The printed curl lines trust the listeners' own certificate, which
	// no system does (here self-signed).
	var banner strings.Builder
	u.out = &banner
	u.printBanner(false)
	ping := "curl -s --cacert " + shellWord(certFile) + " -H \"Authorization: Bearer " + u.Demo.SolKey + "\" https://" + cfg.Listen.SolEU + "/ping\n"
	if !strings.Contains(banner.String(), ping) {
		t.Fatalf("banner:\n%s\nwant the line %q", banner.String(), ping)
	}
	// Plain HTTP to a TLS listener gets no API answer.
	resp, err := http.Get("http://" + cfg.Listen.SolEU + "/ping")
	if err == nil {
		defer resp.Body.Close()
		if resp.StatusCode == 200 || resp.StatusCode == 401 {
			t.Fatalf("plain HTTP answered %d", resp.StatusCode)
		}
	}
}

func TestShellWord(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"/etc/tls/cert.pem": "/etc/tls/cert.pem",
		"certs/a b.pem":     "'certs/a b.pem'",
		"it's.pem":          `'it'\''s.pem'`,
		"":                  "''",
	} {
		if got := shellWord(in); got != want {
			t.Errorf("shellWord(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestBannerOfOneRole: a process running some roles of several (the
// registry that made the demo account) does not say the service is up,
// which its listeners, other processes', may not be.
func TestBannerOfOneRole(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	u := &Up{cfg: config.Default(), out: &out, opts: Options{Roles: []string{RoleRegistry}},
		Demo: &server.Demo{AccountID: "acc_x", SolKey: "tapi_sol_live_x", EVMKey: "tapi_evm_live_y"}}
	u.printBanner(false)
	if strings.Contains(out.String(), "tradeapi is up") || !strings.Contains(out.String(), "tradeapi registry started") ||
		!strings.Contains(out.String(), "tapi_sol_live_x") {
		t.Fatalf("banner:\n%s", out.String())
	}
	out.Reset()
	u.single = true
	u.printBanner(false)
	if !strings.Contains(out.String(), "tradeapi is up") {
		t.Fatalf("banner of the whole service:\n%s", out.String())
	}
}
