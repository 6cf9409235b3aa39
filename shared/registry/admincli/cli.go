// Package admincli is `tradeapi admin`: the account manager's command line,
// a thin client of the registry's admin API with the same verbs.
//
// The CLI checks only what it must to build a request (its flags and their
// count); every rule about the values is the server's, so the CLI, the
// console and any script get the same answers, and a new rule needs no new
// CLI. Each command prints the API's JSON answer as it came, indented, so
// its output can be piped into jq.
package admincli

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/registry"
)

// defaultAdminAddr is where the admin API listens unless configured. It is
// read from the config's defaults rather than repeated, so the CLI and
// `tradeapi up` cannot disagree about it.
var defaultAdminAddr = config.Default().Listen.Admin

// cliUsage is printed by help and after every usage error; it lists every
// verb of cliCommands with the flags each takes.
var cliUsage = `usage: tradeapi admin [--addr HOST:PORT|URL] [--data-dir DIR] [--config FILE] <command>

commands:
  accounts create --name NAME
  accounts get ACCOUNT
  accounts list
  accounts usage ACCOUNT             (the rate budget's current window usage per family)
  accounts orders ACCOUNT [--limit N] (recent orders, newest first, with explorer links)
  keys create ACCOUNT --family sol|evm --name NAME
  keys revoke ACCOUNT KEY_ID
  wallets create ACCOUNT --family sol|evm [--count N] [--spot-active=false]
  wallets import ACCOUNT --family sol|evm --private-key-file FILE|- [--spot-active=false]
                                     (the file holds one key: sol, the base58 of the 64-byte
                                     keypair or solana-keygen's JSON byte array; evm, the hex
                                     of the 32-byte private key, with or without 0x)
  wallets set ACCOUNT ADDRESS --spot-active=true|false
  strategy set ACCOUNT --file FILE|-
  limits set ACCOUNT --family sol|evm [--minute N] [--hour N] [--week N]
  fee-caps set ACCOUNT --family sol|evm [--max-priority-fee N] [--max-processor-tip N] [--max-jito-tip N]
                                     (sol: all in SOL; evm: priority fee in gwei, tip in the
                                     native coin, no jito tip; unset caps keep their value)
  webhook set ACCOUNT --url URL      (prints the new signing secret, shown once)
  webhook delete ACCOUNT
  devnet info
  devnet fund --chain CHAIN --address ADDRESS --amount N [--token T --token-amount N]
                                     (amounts in whole units; --amount may be left out only
                                     when --token is given, to fund the token alone)
  devnet token --chain CHAIN --venue VENUE --name NAME --symbol SYMBOL [--quote-asset A] [--liquidity N]
               [--buy-tax-pct P] [--sell-tax-pct P] [--creator ADDRESS] [--fee-tier T]
                                     (VENUE: pump_fun, pumpswap, launchlab or dbc on solana;
                                     v2 or v3 on an EVM chain. Taxes are for v2; --fee-tier is
                                     for v3: 100, 500, 3000 (the default) or 10000)
  devnet balance --chain CHAIN --address ADDRESS [--token T]
  devnet upgrade --program pump_fun|pumpswap|launchlab|dbc [--breaking] [--revert] [--chain solana]
                                     (redeploys a program of the local chain: a new deploy slot;
                                     --breaking makes its trades need one more account)
  venues list                        (each venue's state: active, or paused with the reason)
  venues resume VENUE [--chain CHAIN] (runs the venue's checks; lifts its pause if they pass;
                                     uniswap_v2 and uniswap_v3 are on every EVM chain:
                                     --chain names one, else every one)

The admin API is at --addr, else TRADEAPI_ADMIN_ADDR, else listen.admin of the
config file (--config, the file up reads), else ` + defaultAdminAddr + `. An address
without a scheme is spoken to over https when TLS is configured as up reads it
(TRADEAPI_TLS_CERT_FILE and TRADEAPI_TLS_KEY_FILE, or tls: in the file), else
over http; the certificate of TRADEAPI_TLS_CERT_FILE (or tls.cert_file) is then
trusted besides the system's, so a self-signed one needs no SSL_CERT_FILE.
The admin token is TRADEAPI_ADMIN_TOKEN, else the admin_token file under the data
folder (--data-dir, else TRADEAPI_DATA_DIR, else data_dir of the file, else ./data).
A private key is read from a file or standard input, never from the command line.
`

// CLI runs `tradeapi admin ...`: a thin client of the admin API. It prints
// the JSON answer to stdout and returns 0 on success, 1 on an error answer
// or a failed request, and 2 on a usage error.
func CLI(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cl := &cliRun{ctx: ctx, stdout: stdout, stderr: stderr}
	// Called with or without the role's own name, so main can pass its
	// arguments through as they are.
	if len(args) > 0 && args[0] == "admin" {
		args = args[1:]
	}
	// Global flags may come first; a command parses the rest, where they
	// are accepted too.
	fs := cl.flags("admin")
	if err := fs.Parse(args); err != nil {
		// -h and --help are a request for the usage, answered on stdout
		// with success, not an error.
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, cliUsage)
			return 0
		}
		return cl.usage(err)
	}
	pos := fs.Args()
	if len(pos) < 1 {
		return cl.usage(errors.New("no command given"))
	}
	// help is a command of its own, as people type it without dashes; -h
	// or --help after a noun asks for the usage too.
	if pos[0] == "help" || len(pos) > 1 && (pos[1] == "-h" || pos[1] == "-help" || pos[1] == "--help") {
		fmt.Fprint(stdout, cliUsage)
		return 0
	}
	if len(pos) < 2 {
		for cmd := range cliCommands {
			if noun, _, _ := strings.Cut(cmd, " "); noun == pos[0] {
				return cl.usage(fmt.Errorf("%s: no verb given", pos[0]))
			}
		}
		return cl.usage(fmt.Errorf("unknown command %q", pos[0]))
	}
	// Every command is a noun and a verb; the pair is the table's key.
	cmd := pos[0] + " " + pos[1]
	fn, ok := cliCommands[cmd]
	if !ok {
		return cl.usage(fmt.Errorf("unknown command %q", cmd))
	}
	// The rest, flags and positional arguments in any order, is the
	// command's to parse.
	return fn(cl, pos[2:])
}

// cliRun is one invocation: where to print, and the global options, which
// every command's flag set shares so that they may come anywhere.
type cliRun struct {
	ctx                       context.Context
	stdout, stderr            io.Writer
	addr, dataDir, configPath string
}

// flags returns a flag set with the options every command accepts.
func (cl *cliRun) flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// The flag package would print its own usage on an error; ours is
	// printed instead, by usage, once.
	fs.SetOutput(io.Discard)
	// Bound to cliRun's fields with their current values as defaults, so
	// a global flag given before the command survives the command's own
	// parse, and one given after it overrides.
	fs.StringVar(&cl.addr, "addr", cl.addr, "admin API address")
	fs.StringVar(&cl.dataDir, "data-dir", cl.dataDir, "data folder holding the admin token")
	fs.StringVar(&cl.configPath, "config", cl.configPath, "the YAML config file up reads")
	return fs
}

// usage reports a mistake in the command line with the full usage, and
// exits 2, the convention for misuse, apart from 1 for a refused request;
// -h or --help, which the flag package reports as an error, gets the usage
// on stdout and 0.
func (cl *cliRun) usage(err error) int {
	// -h after a command ("devnet token -h") asks for the usage as much
	// as before it, and is answered the same way (see CLI).
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(cl.stdout, cliUsage)
		return 0
	}
	fmt.Fprintf(cl.stderr, "tradeapi admin: %v\n\n%s", err, cliUsage)
	return 2
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments, and returns the positional ones.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	// The flag package stops at the first positional argument; parsing
	// again after each one lets "keys create ACCOUNT --family sol" and
	// "keys create --family sol ACCOUNT" mean the same.
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// cliCommands maps "noun verb" to the command. Each command parses its own
// flags, checks its positional arguments, and makes one call; the value of
// a flag is sent as given, for the API to judge.
var cliCommands = map[string]func(*cliRun, []string) int{
	// POST /admin/v1/accounts
	"accounts create": func(cl *cliRun, args []string) int {
		fs := cl.flags("accounts create")
		// A missing --name is sent as "" for the server to refuse, so the
		// message is the API's, naming the field.
		name := fs.String("name", "", "account name")
		if _, err := cl.parse(fs, args, 0); err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodPost, "/admin/v1/accounts", map[string]any{"name": *name})
	},
	// GET /admin/v1/accounts/{id}: wallets, keys, limits, fee caps, strategy
	"accounts get": func(cl *cliRun, args []string) int {
		pos, err := cl.parse(cl.flags("accounts get"), args, 1)
		if err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodGet, "/admin/v1/accounts/"+url.PathEscape(pos[0]), nil)
	},
	// GET /admin/v1/accounts/{id}/usage, as ingress counts it
	"accounts usage": func(cl *cliRun, args []string) int {
		pos, err := cl.parse(cl.flags("accounts usage"), args, 1)
		if err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodGet, "/admin/v1/accounts/"+url.PathEscape(pos[0])+"/usage", nil)
	},
	// GET /admin/v1/accounts/{id}/orders, newest first
	"accounts orders": func(cl *cliRun, args []string) int {
		fs := cl.flags("accounts orders")
		limit := fs.Int("limit", 20, "how many orders, 1 to 100")
		pos, err := cl.parse(fs, args, 1)
		if err != nil {
			return cl.usage(err)
		}
		// Checked here because it goes into a query string, where a
		// typo would otherwise reach the server as a different request.
		if *limit < 1 || *limit > 100 {
			return cl.usage(errors.New("--limit must be 1 to 100"))
		}
		return cl.call(http.MethodGet, fmt.Sprintf("/admin/v1/accounts/%s/orders?limit=%d", url.PathEscape(pos[0]), *limit), nil)
	},
	// GET /admin/v1/accounts
	"accounts list": func(cl *cliRun, args []string) int {
		if _, err := cl.parse(cl.flags("accounts list"), args, 0); err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodGet, "/admin/v1/accounts", nil)
	},
	// POST /admin/v1/accounts/{id}/keys; the key is printed once
	"keys create": func(cl *cliRun, args []string) int {
		fs := cl.flags("keys create")
		// family and name go as typed; the server checks both and says
		// which one is wrong.
		family := fs.String("family", "", "sol or evm")
		name := fs.String("name", "", "key name")
		pos, err := cl.parse(fs, args, 1)
		if err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodPost, accountPath(pos[0], "keys"), map[string]any{"family": *family, "name": *name})
	},
	// DELETE /admin/v1/accounts/{id}/keys/{key_id}
	"keys revoke": func(cl *cliRun, args []string) int {
		pos, err := cl.parse(cl.flags("keys revoke"), args, 2)
		if err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodDelete, accountPath(pos[0], "keys", pos[1]), nil)
	},
	// POST /admin/v1/accounts/{id}/wallets
	"wallets create": func(cl *cliRun, args []string) int {
		fs := cl.flags("wallets create")
		family := fs.String("family", "", "sol or evm")
		// The defaults are the API's own (one wallet, spot active), sent
		// explicitly so the request says what was asked for.
		count := fs.Int("count", 1, "how many wallets")
		active := fs.Bool("spot-active", true, "enable the wallets for spot trading")
		pos, err := cl.parse(fs, args, 1)
		if err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodPost, accountPath(pos[0], "wallets"),
			map[string]any{"family": *family, "count": *count, "spot_active": *active})
	},
	// POST /admin/v1/accounts/{id}/wallets/import
	"wallets import": func(cl *cliRun, args []string) int {
		fs := cl.flags("wallets import")
		family := fs.String("family", "", "sol or evm")
		file := fs.String("private-key-file", "", "file holding the private key, - for standard input")
		active := fs.Bool("spot-active", true, "enable the wallet for spot trading")
		pos, err := cl.parse(fs, args, 1)
		if err != nil {
			return cl.usage(err)
		}
		// A private key is never taken as a flag's value: it would stay
		// in the shell's history and in the process list.
		if *file == "" {
			return cl.usage(errors.New("--private-key-file is required"))
		}
		key, err := readFileOrStdin(*file)
		if err != nil {
			fmt.Fprintf(cl.stderr, "tradeapi admin: %v\n", err)
			return 1
		}
		// Trimmed: a key file usually ends with a newline, which is not
		// part of the key.
		return cl.call(http.MethodPost, accountPath(pos[0], "wallets", "import"),
			map[string]any{"family": *family, "private_key": strings.TrimSpace(string(key)), "spot_active": *active})
	},
	// PATCH /admin/v1/accounts/{id}/wallets/{address}
	"wallets set": func(cl *cliRun, args []string) int {
		fs := cl.flags("wallets set")
		active := fs.String("spot-active", "", "true or false")
		pos, err := cl.parse(fs, args, 2)
		if err != nil {
			return cl.usage(err)
		}
		// A string flag, not a bool: a bool flag would read a bare
		// --spot-active as true and its absence as false, and a PATCH
		// that switches a wallet off by omission must not be possible.
		var v bool
		switch *active {
		case "true":
			v = true
		case "false":
		default:
			return cl.usage(errors.New("--spot-active=true or --spot-active=false is required"))
		}
		return cl.call(http.MethodPatch, accountPath(pos[0], "wallets", pos[1]), map[string]any{"spot_active": v})
	},
	// PUT /admin/v1/accounts/{id}/strategy
	"strategy set": func(cl *cliRun, args []string) int {
		fs := cl.flags("strategy set")
		file := fs.String("file", "", `JSON file: {"auto_orders": [...]} or the bare array, - for standard input`)
		pos, err := cl.parse(fs, args, 1)
		if err != nil {
			return cl.usage(err)
		}
		// A strategy is a list, awkward to type as flags; it comes from
		// a file, the same JSON a swap's auto_orders holds.
		if *file == "" {
			return cl.usage(errors.New("--file is required"))
		}
		raw, err := readFileOrStdin(*file)
		if err != nil {
			fmt.Fprintf(cl.stderr, "tradeapi admin: %v\n", err)
			return 1
		}
		raw = bytes.TrimSpace(raw)
		// The file goes out as written (RawMessage), so numbers keep their
		// exact text. A bare array is wrapped, since it is what a swap's
		// auto_orders looks like and an operator may copy one.
		var body any = json.RawMessage(raw)
		if len(raw) > 0 && raw[0] == '[' {
			body = map[string]any{"auto_orders": json.RawMessage(raw)}
		} else if !json.Valid(raw) {
			// RawMessage must be valid JSON to be marshalled; say which
			// file is wrong rather than fail to encode.
			fmt.Fprintf(cl.stderr, "tradeapi admin: %s is not JSON\n", *file)
			return 1
		}
		return cl.call(http.MethodPut, accountPath(pos[0], "strategy"), body)
	},
	// PUT /admin/v1/accounts/{id}/limits
	"limits set": func(cl *cliRun, args []string) int {
		fs := cl.flags("limits set")
		family := fs.String("family", "", "sol or evm")
		minute := fs.Int64("minute", 0, "requests a minute")
		hour := fs.Int64("hour", 0, "requests an hour")
		week := fs.Int64("week", 0, "requests a week")
		pos, err := cl.parse(fs, args, 1)
		if err != nil {
			return cl.usage(err)
		}
		body := map[string]any{"family": *family}
		// Visit walks only the flags given, so a window left out is left
		// out of the body and keeps its figure on the server.
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "minute":
				body["minute"] = *minute
			case "hour":
				body["hour"] = *hour
			case "week":
				body["week"] = *week
			}
		})
		return cl.call(http.MethodPut, accountPath(pos[0], "limits"), body)
	},
	// PUT /admin/v1/accounts/{id}/fee_caps
	"fee-caps set": func(cl *cliRun, args []string) int {
		fs := cl.flags("fee-caps set")
		family := fs.String("family", "", "sol or evm")
		// String flags, not floats: a cap is money, and its text goes out
		// exactly as typed (see numberOrString).
		caps := stringFlags(fs, "max-priority-fee", "max-processor-tip", "max-jito-tip")
		pos, err := cl.parse(fs, args, 1)
		if err != nil {
			return cl.usage(err)
		}
		// Only the caps given are sent: the others keep their value.
		body := map[string]any{"family": *family}
		for name, v := range caps.body() {
			body[name] = numberOrString(v.(string))
		}
		return cl.call(http.MethodPut, accountPath(pos[0], "fee_caps"), body)
	},
	// PUT /admin/v1/accounts/{id}/webhook
	"webhook set": func(cl *cliRun, args []string) int {
		fs := cl.flags("webhook set")
		u := fs.String("url", "", "http(s) URL the account's order events are POSTed to")
		pos, err := cl.parse(fs, args, 1)
		if err != nil {
			return cl.usage(err)
		}
		if *u == "" {
			return cl.usage(errors.New("--url is required"))
		}
		// The answer holds the new signing secret, shown this once; it
		// is printed like any answer, for the operator to copy.
		return cl.call(http.MethodPut, accountPath(pos[0], "webhook"), map[string]any{"url": *u})
	},
	// DELETE /admin/v1/accounts/{id}/webhook
	"webhook delete": func(cl *cliRun, args []string) int {
		pos, err := cl.parse(cl.flags("webhook delete"), args, 1)
		if err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodDelete, accountPath(pos[0], "webhook"), nil)
	},
	// GET /admin/v1/devnet
	"devnet info": func(cl *cliRun, args []string) int {
		if _, err := cl.parse(cl.flags("devnet info"), args, 0); err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodGet, "/admin/v1/devnet", nil)
	},
	// POST /admin/v1/devnet/fund
	"devnet fund": func(cl *cliRun, args []string) int {
		fs := cl.flags("devnet fund")
		// Amounts are strings end to end: decimal text in whole units,
		// never a float.
		s := stringFlags(fs, "chain", "address", "amount", "token", "token-amount")
		if _, err := cl.parse(fs, args, 0); err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodPost, "/admin/v1/devnet/fund", s.body())
	},
	// POST /admin/v1/devnet/tokens
	"devnet token": func(cl *cliRun, args []string) int {
		fs := cl.flags("devnet token")
		s := stringFlags(fs, "chain", "venue", "name", "symbol", "quote-asset", "liquidity", "creator")
		// Taxes are percentages of a test token, not money: a float is
		// what the API takes for them.
		buyTax := fs.Float64("buy-tax-pct", 0, "buy tax in percent")
		sellTax := fs.Float64("sell-tax-pct", 0, "sell tax in percent")
		// A string, sent as a number when it is one (numberOrString), so
		// a tier the chain lacks is refused by the API naming fee_tier
		// and listing the tiers, not by the flag package.
		feeTier := fs.String("fee-tier", "", "a v3 pool's fee in hundredths of a basis point")
		if _, err := cl.parse(fs, args, 0); err != nil {
			return cl.usage(err)
		}
		body := s.body()
		if *feeTier != "" {
			body["fee_tier"] = numberOrString(*feeTier)
		}
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "buy-tax-pct":
				body["buy_tax_pct"] = *buyTax
			case "sell-tax-pct":
				body["sell_tax_pct"] = *sellTax
			}
		})
		return cl.call(http.MethodPost, "/admin/v1/devnet/tokens", body)
	},
	// GET /admin/v1/devnet/balance
	"devnet balance": func(cl *cliRun, args []string) int {
		fs := cl.flags("devnet balance")
		s := stringFlags(fs, "chain", "address", "token")
		if _, err := cl.parse(fs, args, 0); err != nil {
			return cl.usage(err)
		}
		// A GET takes its fields in the query, encoded, so an address or
		// symbol with odd characters cannot change the request.
		q := url.Values{}
		for k, v := range s.body() {
			q.Set(k, v.(string))
		}
		return cl.call(http.MethodGet, "/admin/v1/devnet/balance?"+q.Encode(), nil)
	},
	// POST /admin/v1/devnet/upgrade
	"devnet upgrade": func(cl *cliRun, args []string) int {
		fs := cl.flags("devnet upgrade")
		chain := fs.String("chain", "solana", "the local chain")
		program := fs.String("program", "", "pump_fun, pumpswap, launchlab or dbc")
		breaking := fs.Bool("breaking", false, "the new build needs one more account in its trades")
		revert := fs.Bool("revert", false, "deploy the original build again")
		if _, err := cl.parse(fs, args, 0); err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodPost, "/admin/v1/devnet/upgrade",
			map[string]any{"chain": *chain, "program": *program, "breaking": *breaking, "revert": *revert})
	},
	// GET /admin/v1/venues
	"venues list": func(cl *cliRun, args []string) int {
		if _, err := cl.parse(cl.flags("venues list"), args, 0); err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodGet, "/admin/v1/venues", nil)
	},
	// POST /admin/v1/venues/{venue}/resume
	"venues resume": func(cl *cliRun, args []string) int {
		fs := cl.flags("venues resume")
		chain := fs.String("chain", "", "the chain of a venue on several (uniswap_v2, uniswap_v3)")
		pos, err := cl.parse(fs, args, 1)
		if err != nil {
			return cl.usage(err)
		}
		path := "/admin/v1/venues/" + url.PathEscape(pos[0]) + "/resume"
		if *chain != "" {
			path += "?" + url.Values{"chain": {*chain}}.Encode()
		}
		return cl.call(http.MethodPost, path, nil)
	},
}

// stringSet is a group of string flags sent as JSON fields, dashes turned
// into underscores; flags left unset are not sent.
type stringSet map[string]*string

// stringFlags declares a string flag for each name, its help text the
// name itself: the usage text is where the flags are explained.
func stringFlags(fs *flag.FlagSet, names ...string) stringSet {
	s := stringSet{}
	for _, n := range names {
		s[n] = fs.String(n, "", n)
	}
	return s
}

// body returns the flags that were given a value, by JSON field name.
func (s stringSet) body() map[string]any {
	out := map[string]any{}
	// An empty value counts as not given: --token "" is no token, and the
	// server's default applies.
	for n, v := range s {
		if *v != "" {
			out[strings.ReplaceAll(n, "-", "_")] = *v
		}
	}
	return out
}

// numberOrString sends a flag's text as a JSON number when it is one, so
// that the API reads it as typed (1e-3 included), and as a string
// otherwise, so that the API, not the CLI, says what is wrong with it and
// names the field.
func numberOrString(s string) any {
	t := strings.TrimSpace(s)
	// A valid JSON value that starts with a minus or a digit can only be a
	// number; json.Number then goes out verbatim, never through a float.
	if t != "" && (t[0] == '-' || '0' <= t[0] && t[0] <= '9') && json.Valid([]byte(t)) {
		return json.Number(t)
	}
	return s
}

// parse parses a command's flags and checks it got exactly n positional
// arguments.
func (cl *cliRun) parse(fs *flag.FlagSet, args []string, n int) ([]string, error) {
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, err
	}
	// Exactly n: a stray extra word is most likely a flag missing its
	// dashes, and running the command without it would surprise.
	if len(pos) != n {
		return nil, fmt.Errorf("%s takes %d argument(s), got %d", fs.Name(), n, len(pos))
	}
	return pos, nil
}

// accountPath builds a path under an account, escaping each part, so an
// id or address with a slash or a question mark stays one path segment.
func accountPath(id string, parts ...string) string {
	p := "/admin/v1/accounts/" + url.PathEscape(id)
	for _, s := range parts {
		p += "/" + url.PathEscape(s)
	}
	return p
}

// readFileOrStdin reads a file, or standard input for "-", which lets a
// key come from a password manager's pipe without touching the disk.
func readFileOrStdin(name string) ([]byte, error) {
	if name == "-" {
		// Bounded: standard input may be a stream that never ends, and
		// nothing the API takes is anywhere near 1 MiB.
		b, err := io.ReadAll(io.LimitReader(os.Stdin, 1<<20))
		if err != nil {
			return nil, fmt.Errorf("read standard input: %w", err)
		}
		return b, nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return b, nil
}

// settings reads the configuration the way `up` does: the --config file
// over the defaults, then the TRADEAPI_* variables. The CLI takes from it
// what it shares with the server (the admin listener, whether it serves
// TLS and with which certificate, the data folder), so that the variables,
// or the file, that configure the server configure the CLI too.
func (cl *cliRun) settings() (config.Config, error) {
	// Only these keys of the file: its RPC URLs' variables, which carry
	// keys, need not be in an operator's shell.
	cfg, err := config.LoadParts(cl.configPath, os.LookupEnv, "listen", "tls", "data_dir")
	if err != nil {
		return cfg, err
	}
	cfg.ApplyEnv(os.Getenv)
	return cfg, nil
}

// baseURL turns the configured address into a URL: --addr, else
// TRADEAPI_ADMIN_ADDR (what `up` reads, so one variable moves both), else
// the file's listen.admin, else the default listener.
func (cl *cliRun) baseURL(cfg config.Config) string {
	addr := cl.addr
	if addr == "" {
		// ApplyEnv has put TRADEAPI_ADMIN_ADDR over the file's value,
		// which is over the default: the server's own order.
		addr = cfg.Listen.Admin
	}
	// HOST:PORT as the config writes it gets the scheme the server serves
	// it with; a full URL (https behind a proxy, say) is taken as it is.
	if !strings.Contains(addr, "://") {
		scheme := "http://"
		if cfg.TLS.Enabled() {
			scheme = "https://"
		}
		addr = scheme + addr
	}
	return strings.TrimRight(addr, "/")
}

// token finds the admin token: the environment first, so a deployment
// that passes it there needs no file; else the file `up` writes under the
// data folder, so on the machine that runs the service the CLI needs no
// setup.
func (cl *cliRun) token(cfg config.Config) (string, error) {
	// AdminToken is TRADEAPI_ADMIN_TOKEN: the file never holds it.
	if t := strings.TrimSpace(cfg.AdminToken); t != "" {
		return t, nil
	}
	// The same order of sources as `up` uses for its data folder
	// (TRADEAPI_DATA_DIR, the file's data_dir, ./data), so the CLI finds
	// the token `up` wrote without being told where.
	dir := cl.dataDir
	if dir == "" {
		dir = cfg.DataDir
	}
	b, err := os.ReadFile(registry.AdminTokenPath(dir))
	if err != nil {
		return "", fmt.Errorf("no TRADEAPI_ADMIN_TOKEN and no admin token file: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// httpClient returns the client for base. Over https with a certificate
// configured, that certificate is trusted besides the system's roots: it
// is the one the server presents, most often self-signed, which no system
// trusts. The system's roots stay, for a certificate from a public
// authority or a proxy's in front of the listener.
func httpClient(cfg config.Config, base *url.URL) (*http.Client, error) {
	if base.Scheme != "https" || cfg.TLS.CertFile == "" {
		return http.DefaultClient, nil
	}
	// The certificate only: the key is the server's, never read here.
	pem, err := os.ReadFile(cfg.TLS.CertFile)
	if err != nil {
		return nil, fmt.Errorf("tls certificate: %w", err)
	}
	roots, err := x509.SystemCertPool()
	if err != nil {
		// A system without roots (a bare container) still trusts the
		// configured certificate.
		roots = x509.NewCertPool()
	}
	if !roots.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("tls certificate %s: no PEM certificate in it", cfg.TLS.CertFile)
	}
	// A clone keeps the default transport's proxy and timeouts.
	tr := &http.Transport{Proxy: http.ProxyFromEnvironment}
	if dt, ok := http.DefaultTransport.(*http.Transport); ok {
		tr = dt.Clone()
	}
	tr.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	return &http.Client{Transport: tr}, nil
}

// call sends one request and prints the answer. Every command ends here,
// so they all authenticate, time out and report errors the same way.
func (cl *cliRun) call(method, path string, body any) int {
	cfg, err := cl.settings()
	if err != nil {
		fmt.Fprintf(cl.stderr, "tradeapi admin: %v\n", err)
		return 1
	}
	tok, err := cl.token(cfg)
	if err != nil {
		fmt.Fprintf(cl.stderr, "tradeapi admin: %v\n", err)
		return 1
	}
	addr := cl.baseURL(cfg)
	base, err := url.Parse(addr)
	if err != nil {
		fmt.Fprintf(cl.stderr, "tradeapi admin: %v\n", err)
		return 1
	}
	hc, err := httpClient(cfg, base)
	if err != nil {
		fmt.Fprintf(cl.stderr, "tradeapi admin: %v\n", err)
		return 1
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			fmt.Fprintf(cl.stderr, "tradeapi admin: encode request: %v\n", err)
			return 1
		}
		rd = bytes.NewReader(b)
	}
	// Long enough for the slowest verb (a devnet token is a few
	// transactions on the local chain), short enough that a hung server
	// does not hang a script.
	ctx, cancel := context.WithTimeout(cl.ctx, 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, addr+path, rd)
	if err != nil {
		fmt.Fprintf(cl.stderr, "tradeapi admin: %v\n", err)
		return 1
	}
	// The token travels in the header only, never in the URL, where it
	// would land in proxies' logs.
	req.Header.Set("Authorization", "Bearer "+tok)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := hc.Do(req)
	if err != nil {
		// The base URL, not the path: the path may hold an account id,
		// which is harmless, but the message stays short either way.
		fmt.Fprintf(cl.stderr, "tradeapi admin: %s %s: %v%s\n", method, base.Redacted(), err, transportHint(err, base, cfg.TLS.CertFile))
		return 1
	}
	defer resp.Body.Close()
	// Bounded, in case --addr points at something that is not the admin
	// API and streams without end.
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		fmt.Fprintf(cl.stderr, "tradeapi admin: read answer: %v\n", err)
		return 1
	}
	var env struct {
		Success bool `json:"success"`
		Error   *struct {
			Code    string  `json:"code"`
			Message string  `json:"message"`
			Details *string `json:"details"`
		} `json:"error"`
	}
	// Something other than the envelope (a proxy's error page, another
	// service on the port, a TLS listener spoken to in plain HTTP) is
	// described, not printed.
	if err := json.Unmarshal(raw, &env); err != nil {
		fmt.Fprintf(cl.stderr, "tradeapi admin: %s\n", notJSON(base, resp.StatusCode, raw, tok))
		return 1
	}
	// The answer is printed whole on stdout, error or not, so a script
	// can read the code and details; stderr gets a one-line summary.
	var pretty bytes.Buffer
	if json.Indent(&pretty, raw, "", "  ") == nil {
		raw = pretty.Bytes()
	}
	fmt.Fprintf(cl.stdout, "%s\n", raw)
	// Exit 1 for any refused request, so a script can stop on it; the
	// summary names code, message and the field from details.
	if !env.Success {
		if env.Error != nil {
			msg := env.Error.Code + ": " + env.Error.Message
			if env.Error.Details != nil {
				msg += " (" + *env.Error.Details + ")"
			}
			fmt.Fprintf(cl.stderr, "tradeapi admin: %s\n", msg)
		}
		return 1
	}
	return 0
}

// notJSON describes an answer that is not the API's envelope by its status
// and the start of its body, so that the operator can tell what answered.
// The body is quoted and cut short, and the admin token is cut out of it
// should it echo the request.
func notJSON(base *url.URL, status int, raw []byte, tok string) string {
	what := "an empty body"
	if len(raw) > 0 {
		// The first line, which names what answered (an error page's
		// doctype, a server's one-line refusal).
		line, _, _ := strings.Cut(string(raw), "\n")
		if tok != "" {
			line = strings.ReplaceAll(line, tok, "<admin token>")
		}
		line = strings.TrimSpace(line)
		if len(line) > 120 {
			line = line[:120] + "..."
		}
		what = fmt.Sprintf("a non-JSON body %q", line)
	}
	msg := fmt.Sprintf("the admin listener at %s answered HTTP %d with %s", base.Redacted(), status, what)
	// A TLS listener answers plain HTTP with a bare 400 (Go's with
	// "Client sent an HTTP request to an HTTPS server."), so a 400 over
	// http asks the question.
	if base.Scheme == "http" && status == http.StatusBadRequest {
		tlsURL := *base
		tlsURL.Scheme = "https"
		msg += fmt.Sprintf("; is it serving TLS? use --addr %s, or set TRADEAPI_TLS_CERT_FILE and TRADEAPI_TLS_KEY_FILE as the server has them",
			tlsURL.Redacted())
	}
	return msg
}

// transportHint says what most likely went wrong when a request failed
// below HTTP: the listener does not speak the scheme the CLI chose, or its
// certificate is not one the CLI trusts.
func transportHint(err error, base *url.URL, certFile string) string {
	var unknown x509.UnknownAuthorityError
	switch {
	case errors.Is(err, http.ErrSchemeMismatch):
		plain := *base
		plain.Scheme = "http"
		return fmt.Sprintf("; the admin listener serves plain HTTP: use --addr %s, or unset TRADEAPI_TLS_CERT_FILE and TRADEAPI_TLS_KEY_FILE here as the server runs without them",
			plain.Redacted())
	case errors.As(err, &unknown) && certFile == "":
		return "; set TRADEAPI_TLS_CERT_FILE to the server's certificate, or SSL_CERT_FILE to the authority that signed it"
	case errors.As(err, &unknown):
		return fmt.Sprintf("; it is neither the certificate in %s nor signed by an authority this machine trusts", certFile)
	}
	return ""
}
